# File that can be sourced
echo show-argv: $@
