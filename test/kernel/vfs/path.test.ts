import assert from 'node:assert/strict';
import { test } from 'node:test';
import { SysError } from '../../../src/abi/errno.js';
import {
  byteLength, checkName, checkPath, components, hasTrailingSlash, joinPath, normalizePath,
} from '../../../src/kernel/vfs/path.js';

const code = (fn: () => void): string => {
  try {
    fn();
    return 'ok';
  } catch (e) {
    return (e as SysError).code;
  }
};

test('components collapse slashes and keep dots', () => {
  assert.deepEqual(components('/a//b/./c/../'), ['a', 'b', '.', 'c', '..']);
  assert.deepEqual(components('///'), []);
  assert.deepEqual(components('a'), ['a']);
});

test('trailing slash detection', () => {
  assert.equal(hasTrailingSlash('a/'), true);
  assert.equal(hasTrailingSlash('a//'), true);
  assert.equal(hasTrailingSlash('a'), false);
  assert.equal(hasTrailingSlash('/'), false);
  assert.equal(hasTrailingSlash('a/.'), false);
});

test('length limits are in UTF-8 bytes', () => {
  assert.equal(byteLength('abc'), 3);
  assert.equal(byteLength('é'), 2);
  assert.equal(byteLength('😀'), 4);
  assert.equal(code(() => checkName('x'.repeat(255))), 'ok');
  assert.equal(code(() => checkName('x'.repeat(256))), 'ENAMETOOLONG');
  assert.equal(code(() => checkName('é'.repeat(128))), 'ENAMETOOLONG');
  assert.equal(code(() => checkName('é'.repeat(127))), 'ok');
  assert.equal(code(() => checkPath('a'.repeat(4095))), 'ok');
  assert.equal(code(() => checkPath('a'.repeat(4096))), 'ENAMETOOLONG');
  assert.equal(code(() => checkPath('é'.repeat(2048))), 'ENAMETOOLONG');
  assert.equal(code(() => checkPath('')), 'ENOENT');
});

test('join and normalise', () => {
  assert.equal(joinPath('/a', 'b'), '/a/b');
  assert.equal(joinPath('/', 'b'), '/b');
  assert.equal(joinPath('/a', '/b'), '/b');
  assert.equal(normalizePath('/a/./b//../c/'), '/a/c');
  assert.equal(normalizePath('/..'), '/');
  assert.equal(normalizePath('../x/..'), '..');
  assert.equal(normalizePath('a/..'), '.');
});
