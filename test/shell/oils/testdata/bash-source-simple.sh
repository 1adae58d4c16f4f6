#!/usr/bin/env bash

argv.py "${BASH_SOURCE[@]}"

f() {
  argv.py "${BASH_SOURCE[@]}"
}
