// Scripts run by both the host's real node and agentOS's node (differential.test.ts).
// Each case is a small project: files (relative to the case's directory), the
// command line after `node`, optional stdin. Output must not depend on the host
// (no pids, times, absolute temp paths other than the case's own directory).

export interface NodeCase {
  name: string;
  files: Record<string, string>;
  args: string[];
  stdin?: string;
}

/** Files shared by the module-resolution cases. */
export const RESOLUTION_FILES: Record<string, string> = {
  'lib/a.js': "exports.name = 'a'; const b = require('./b'); exports.fromB = b.name;\n",
  'lib/b.js': "const a = require('./a'); exports.name = 'b'; exports.sawA = a.name;\n",
  'data.json': '{"items": [1, 2, 3]}',
  'pkgdir/package.json': '{"main": "lib/entry.js"}',
  'pkgdir/lib/entry.js': "exports.main = 'pkg main';\n",
  'idx/index.js': "exports.index = 'index';\n",
  'node_modules/simple/index.js': "module.exports = 'simple';\n",
  'node_modules/simple/other.js': "module.exports = 'simple other';\n",
  'node_modules/withmain/package.json': '{"name": "withmain", "main": "./dist/main"}',
  'node_modules/withmain/dist/main.js': "module.exports = 'with main';\n",
  'node_modules/@scope/pkg/package.json': '{"name": "@scope/pkg"}',
  'node_modules/@scope/pkg/index.js': "module.exports = 'scoped';\n",
  'node_modules/cond/package.json': JSON.stringify({ name: 'cond', exports: { '.': { import: './esm.mjs', require: './cjs.js' }, './feature': { default: './feat.js' }, './package.json': './package.json' } }),
  'node_modules/cond/cjs.js': "module.exports = 'cond require';\n",
  'node_modules/cond/esm.mjs': "export default 'cond import';\n",
  'node_modules/cond/feat.js': "module.exports = 'cond feature';\n",
  'node_modules/cond/hidden.js': "module.exports = 'hidden';\n",
  'sub/deep/index.js': "module.exports = { up: require('simple') + ' from deep' };\n",
  'node_modules/impkg/package.json': JSON.stringify({ name: 'impkg', type: 'module', exports: './index.js', imports: { '#internal/*': './src/*.js', '#dep': 'simple' } }),
  'node_modules/impkg/index.js': "import { v } from '#internal/v';\nimport s from '#dep';\nexport default v + ' ' + s;\n",
  'node_modules/impkg/src/v.js': "export const v = 'internal';\n",
  'node_modules/msync/package.json': JSON.stringify({ name: 'msync', exports: { 'module-sync': './sync.mjs', default: './def.js' } }),
  'node_modules/msync/sync.mjs': "export const kind = 'module-sync';\n",
  'node_modules/msync/def.js': "exports.kind = 'default';\n",
};

const js = (name: string, src: string, args: string[] = [], stdin?: string): NodeCase => ({ name, files: { 'main.js': src }, args: ['main.js', ...args], stdin });
const withResolution = (name: string, src: string): NodeCase => ({ name, files: { ...RESOLUTION_FILES, 'main.js': src }, args: ['main.js'] });

export const CASES: NodeCase[] = [
  js('non-ASCII text: strings, Buffer, files and stdin', `
const fs = require('fs');
const s = 'héllo wörld 日本 😀';
console.log(s.length, [...s].length, Buffer.byteLength(s), s.toUpperCase(), s.split('').reverse().join('') === [...s].reverse().join(''));
console.log(Buffer.from(s).toString('hex').slice(0, 24), Buffer.from('😀').toString('base64'), JSON.stringify(s), encodeURIComponent('é😀'));
fs.writeFileSync('naïve-日本.txt', s + '\\n');
console.log(fs.readdirSync('.').filter((f) => f.endsWith('.txt')), fs.readFileSync('naïve-日本.txt', 'utf8').trim() === s, fs.statSync('naïve-日本.txt').size);
process.stdin.setEncoding('utf8');
let input = '';
process.stdin.on('data', (d) => { input += d; });
process.stdin.on('end', () => { console.log([...input].length, input.trim().split(/\\s+/).map((w) => w.normalize('NFD').length)); process.stdout.write('ünïcode on stdout\\n'); });
`, [], 'åäö ☃ 𝄞 ｱ\n'),
  js('console.log formats', `
console.log('a', 1, true, null, undefined, 1n, -0, Symbol('s'));
console.log({ a: 1, b: 'two', c: [1, 2, 3], d: { e: { f: { g: 1 } } } });
console.log([1, 'a', [2, [3, [4, [5]]]]], new Map([['k', 1]]), new Set([1, 'x']));
console.log('%s is %d years and %i, %f, %j %o %%', 'Bob', 42.5, 42.5, '1.5', { a: 1 }, [1]);
console.log(function foo() {}, () => {}, class A {}, class B extends Array {}, async function bar() {});
console.log(new Date(0), /re/g, new Error('e').message, Buffer.from('hi'), new Uint8Array([1, 2]));
console.log({ 'a-b': 1, [Symbol('k')]: 2, get g() { return 1; } }, Object.create(null), [ , 1, , ]);
const o = { name: 'o' }; o.self = o; console.log(o);
console.log(Array.from({ length: 30 }, (_, i) => i * 3));
console.log(Array.from({ length: 120 }, (_, i) => i));
console.log(['apple', 'banana', 'cherry', 'date', 'elderberry', 'fig', 'grape', 'honeydew']);
console.log({ long1: 'x'.repeat(30), long2: 'y'.repeat(30), long3: 'z'.repeat(30) });
console.log("it's", ["it's"], ['say "hi"'], 'multi\\nline', ['a\\nb']);
class Point { constructor() { this.x = 1; this.y = 2; } } console.log(new Point(), [new Point()]);
console.log(new Map([[{ a: 1 }, [1, 2]]]), [undefined, null], { u: undefined });
console.error('to stderr', 42);
console.info('info'); console.warn('warn'); console.debug('debug');
console.log(Number.NaN, Infinity, -Infinity, 1e21, 0.1 + 0.2, [1.5, -2]);
console.log(new Number(3), new String('s'), [new Boolean(false)]);
console.log(process.argv.length, typeof require, typeof module, typeof exports, __filename.endsWith('main.js'));
`),
  { name: 'inspect layouts', files: { 'main.js': "console.log({a:{b:{c:{}}}});\nconsole.log({a:{b:{c:{d:1}}}});\nconsole.log({a:1, b:{c:{d:{e:1}}}});\nconsole.log([[1,[2,[3]]]]);\nconsole.log({x: [1,2,3], y: {z: [4,5,{w:6}]}});\nconsole.log([{a:1,b:2},{a:3,b:4}]);\nconsole.log({ arr: Array.from({length: 10}, (_, i) => ({ id: i })) });\nconsole.log(Array.from({length: 8}, (_, i) => 'item' + i));\nconsole.log({ s: 'a'.repeat(100) });\nconsole.log(['a'.repeat(20), 'b'.repeat(20), 'c'.repeat(20), 'd'.repeat(20)]);\nconsole.log(new Map([['a', {b: {c: {d: 1}}}]]));\nconsole.log({ f() {}, g: function () {}, h: () => 1, k: class {} });\nconsole.log([undefined, , null, NaN]);\nconsole.log({ 'key with space': 1, 123: 2, valid_id: 3, $d: 4 });\nconsole.log(Object.assign(new Error('withprops'), { code: 'X' }).code);\nconsole.log([new Date(86400000), /x/i], { date: new Date(0) });\nconsole.log(new Set([[1, 2], { a: 1 }]), new WeakMap(), Symbol.iterator);\nconsole.log({ nested: { deeper: { deepest: { gone: 1 } } }, sib: 1 });\nconsole.log('%o', { a: [1, 2, { b: 3 }] });\nconsole.log([1.5, 2.25, -3, 100000, 7, 8, 9, 10]);\nconsole.log(Array.from({length: 26}, (_, i) => String.fromCharCode(97 + i).repeat(i % 5 + 1)));\nconsole.log({ buf: Buffer.from('abc'), u8: new Uint8Array(3), f64: new Float64Array([1.5]) });\nconsole.log([['a', 1], ['b', 2]], Object.entries({x: 1, y: [2]}));\nconsole.log(process.env.NOPE, [null], {}, [], [[]], [{}], {a: {}}, { a: [] });\nconsole.log(-0, [-0], 0n, [1n], typeof 1n);\nconsole.log(\"str'with\\\"both\", ['str\\'single'], ['`back`'], [\"'\\\"`\"]);\nconsole.log({ long: { aaaaaaaaaa: 1, bbbbbbbbbbbb: 2, cccccccccccc: 3, dddddddddddd: 4, eeeeeeeeee: 5, ffffff: 6 } });\nclass Foo { constructor() { this.a = 1; } get b() { return 2; } static s = 1; } console.log(new Foo(), Foo, [Foo]);\nconst o = {}; o.a = [o, { o }]; console.log(o);\nconsole.log(Object.create({ inherited: 1 }), Object.create(Array.prototype));\nconsole.log(new (class extends Map {})([[1, 2]]), new (class Named extends Array {})(1, 2));\nconsole.log([function(){}, function named(){}, async () => {}, function*gen(){}]);\nconsole.log({ [Symbol.toStringTag]: 'Tagged', v: 1 });\nconsole.log(Array(3), Array(120).fill(0).length, new Array(5).fill('x'));\n" }, args: ['main.js'] },
  { name: 'inspect options and console methods', files: { 'main.js': "const util = require('util');\nconsole.log(util.inspect({a: 1, b: 'x'}, { compact: false }));\nconsole.log(util.inspect([1, 2, 3], { breakLength: 3 }));\nconsole.log(util.inspect('x'.repeat(30) + '\\n' + 'y'.repeat(30), {}), [ 'x'.repeat(50) + '\\n' + 'y'.repeat(50) ]);\nconsole.log(util.inspect({ a: { b: { c: { d: { e: 1 } } } } }, { depth: Infinity }));\nconsole.log(util.inspect(new Map([[1, 2]]), { showHidden: false }), util.inspect(Object.create(null, { x: { value: 1, enumerable: true } })));\nconst err = new TypeError('msg'); console.log(util.inspect(err).split('\\n')[0], String(err), err.name, err instanceof TypeError);\nconsole.log(util.format('%s', { a: { b: { c: 1 } } }), util.format('%s', [1, [2]]), util.format('%s', null), util.format('%s %s', 1n, Symbol('q')));\nconsole.log(util.format('%i', 42.9), util.format('%d', '42abc'), util.format('%f', 'x'), util.format('%j', { toJSON() { return 'j'; } }));\nconsole.log(util.inspect({ get x() { return 1; }, set y(v) {} }, { getters: true }));\nconsole.log([ [1, 2, [3, 4, [5, [6]]]] ]);\nconsole.log(JSON.stringify(util.inspect('\\x00\\x07\\u2028')));\nconsole.log(util.inspect(new Array(200).fill(1)).split('\\n').length);\nconsole.log({ und: undefined, fn: function () {}, arrow: (a, b) => a });\nconsole.log(new (class A { constructor() { this.x = { y: { z: { w: 1 } } }; } })());\nconsole.table([{ a: 1, b: 'x' }, { a: 2, c: true }]);\nconsole.table({ r1: 5, r2: 'v' });\nconsole.group('G'); console.log('inside'); console.group(); console.log({ nested: [1] }); console.groupEnd(); console.groupEnd(); console.log('out');\nconsole.count(); console.count(); console.count('x'); console.countReset(); console.count();\nconsole.assert(1 === 1, 'no'); console.assert(false, 'yes %s', 'fmt'); console.assert(false);\nconsole.dir({ a: { b: { c: { d: 1 } } } }, { depth: 0 });\n" }, args: ['main.js'] },
  js('util.inspect and format', `
const util = require('util');
console.log(util.inspect({ a: { b: { c: { d: 1 } } } }, { depth: 0 }), util.inspect('str'), util.inspect([1, [2]], { depth: null }));
console.log(util.format('%s:%s', 'a'), util.format('a', 'b', 3), util.format(1, 2), util.format('%d', '0x10'));
console.log(util.inspect(new Map([[1, { a: [1, 2, { b: 3 }] }]]), { depth: 4 }));
console.log(util.isDeepStrictEqual({ a: [1] }, { a: [1] }), util.isDeepStrictEqual([1], ['1']));
console.log(util.types.isPromise(Promise.resolve()), util.types.isRegExp(/a/), util.types.isDate(new Date()));
function Old() {} function Base() {} Base.prototype.hi = function () { return 'hi'; };
util.inherits(Old, Base); console.log(new Old().hi(), Old.super_ === Base);
const p = util.promisify((x, cb) => setTimeout(() => cb(null, x * 2), 1)); p(21).then((v) => console.log('promisified', v));
console.log(util.inspect({ arr: new Array(5) }), util.inspect(new Error('boom')).split('\\n')[0]);
`),
  js('timers order and liveness', `
const order = [];
// Spaced widely: which of two close timers fires first depends on load, in Node too.
setTimeout(() => order.push('timeout 600'), 600);
setTimeout(() => order.push('timeout 300'), 300);
setImmediate(() => { order.push('immediate'); setImmediate(() => order.push('immediate 2')); process.nextTick(() => order.push('tick in immediate')); });
process.nextTick(() => order.push('tick'));
Promise.resolve().then(() => order.push('promise'));
queueMicrotask(() => order.push('microtask'));
const iv = setInterval(() => { order.push('interval'); if (order.filter((x) => x === 'interval').length === 2) clearInterval(iv); }, 80);
const t = setTimeout(() => order.push('never'), 5); clearTimeout(t);
const u = setTimeout(() => order.push('unref never'), 1000); u.unref();
process.on('exit', (c) => console.log(order.join(','), 'exit', c));
`),
  js('process basics', `
console.log(process.platform, typeof process.pid, typeof process.ppid, process.argv.slice(2), process.argv0.length > 0);
console.log(process.cwd() === __dirname, process.env.HOME, process.env.NOPE, 'HOME' in process.env);
process.env.X = 5; console.log(typeof process.env.X, process.env.X);
const [s, n] = process.hrtime(); console.log(typeof s, typeof n, typeof process.hrtime.bigint());
console.log(typeof process.memoryUsage().heapUsed, typeof process.uptime(), process.version.startsWith('v20'));
process.chdir('/'); console.log(process.cwd());
try { process.chdir('/nonexistent-dir'); } catch (e) { console.log(e.code, e.syscall); }
process.stdout.write('no newline'); process.stdout.write(' then\\n');
process.exitCode = 3;
`, ['a', 'b c']),
  js('process.exit in the middle', `
process.on('exit', (c) => console.log('exit handler', c));
setTimeout(() => console.log('never'), 100);
console.log('before');
process.exit(7);
console.log('after');
`),
  js('uncaught exception', `
console.log('out first');
function fail() { throw new TypeError('bad thing'); }
fail();
`),
  js('uncaught in timer', `
setTimeout(() => { null.x; }, 1);
`),
  js('unhandled rejection', `
Promise.reject(new RangeError('nope'));
setTimeout(() => console.log('never printed'), 50);
`),
  js('uncaughtException handler', `
process.on('uncaughtException', (e) => { console.log('caught', e.message); });
setTimeout(() => { throw new Error('later'); }, 1);
setTimeout(() => console.log('still alive'), 20);
`),
  js('throw a string', `throw 'just a string';`),
  withResolution('require relative, json, dir index, cache, cycles', `
const a = require('./lib/a');
const b = require('./lib/b.js');
console.log(a.name, a.fromB, b.name, b.sawA);
console.log(require('./data.json').items.length, require('./data').ok);
console.log(require('./pkgdir').main, require('./idx').index);
console.log(require('./lib/a') === a, Object.keys(require.cache).length > 3);
console.log(require.resolve('./lib/a').endsWith('/lib/a.js'), module.id, require.main === module);
console.log(module.children.length, typeof module.paths[0]);
try { require('./missing'); } catch (e) { console.log(e.code, e.message.split('\\n')[0]); }
try { require('missing-pkg'); } catch (e) { console.log(e.code, e.message.split('\\n')[0]); }
console.log(require('node:path') === require('path'), typeof require('fs').readFileSync);
console.log(this === module.exports, __dirname === require('path').dirname(__filename));
`),
  withResolution('node_modules, package.json main and exports', `
console.log(require('simple'), require('withmain'), require('@scope/pkg'));
console.log(require('cond'), require('cond/feature'), require('cond/package.json').name);
try { require('cond/hidden'); } catch (e) { console.log(e.code); }
console.log(require('simple/other'), require.resolve('withmain').replace(__dirname, '.'));
console.log(require('./sub/deep').up);
console.log(require('impkg').default, require('msync').kind);
import('impkg').then((m) => console.log('import', m.default));
`),
  js('fs sync', `
const fs = require('fs');
fs.mkdirSync('out/a/b', { recursive: true });
console.log(fs.mkdirSync('out/x/y', { recursive: true }).endsWith('out/x'), fs.mkdirSync('out/a', { recursive: true }));
fs.writeFileSync('out/a/f.txt', 'hello');
fs.appendFileSync('out/a/f.txt', ' world\\n');
console.log(fs.readFileSync('out/a/f.txt', 'utf8'), fs.readFileSync('out/a/f.txt').length, fs.existsSync('out/a/f.txt'), fs.existsSync('nope'));
const st = fs.statSync('out/a/f.txt'); console.log(st.isFile(), st.isDirectory(), st.size, st.mtime instanceof Date, typeof st.mtimeMs);
console.log(fs.readdirSync('out').sort(), fs.readdirSync('out/a', { withFileTypes: true }).map((d) => [d.name, d.isFile(), d.isDirectory()]).sort());
fs.renameSync('out/a/f.txt', 'out/a/g.txt'); fs.copyFileSync('out/a/g.txt', 'out/h.txt');
fs.symlinkSync('h.txt', 'out/link'); console.log(fs.readlinkSync('out/link'), fs.lstatSync('out/link').isSymbolicLink(), fs.readFileSync('out/link', 'utf8').trim());
console.log(fs.realpathSync('out/link').endsWith('/out/h.txt'));
fs.chmodSync('out/h.txt', 0o600); console.log((fs.statSync('out/h.txt').mode & 0o777).toString(8));
const fd = fs.openSync('out/fd.txt', 'w+'); fs.writeSync(fd, 'abcdef'); const buf = Buffer.alloc(3); fs.readSync(fd, buf, 0, 3, 2); fs.closeSync(fd); console.log(buf.toString());
fs.unlinkSync('out/link'); fs.rmSync('out/a', { recursive: true }); fs.rmSync('out/nothing', { force: true });
console.log(fs.readdirSync('out').sort());
const tmp = fs.mkdtempSync('out/tmp-'); console.log(tmp.startsWith('out/tmp-'), tmp.length);
fs.accessSync('out/h.txt'); fs.truncateSync('out/h.txt', 2); console.log(JSON.stringify(fs.readFileSync('out/h.txt', 'latin1')));
fs.rmSync('out', { recursive: true });
`),
  js('fs errors', `
const fs = require('fs');
const show = (f) => { try { f(); console.log('no error'); } catch (e) { console.log(e.message, '|', e.code, e.errno, e.syscall, e.path); } };
show(() => fs.readFileSync('/nope/x'));
show(() => fs.readFileSync('.'));
show(() => fs.statSync('missing.txt'));
show(() => fs.mkdirSync('main.js'));
show(() => fs.readdirSync('main.js'));
show(() => fs.rmdirSync('missing'));
show(() => fs.unlinkSync('missing'));
show(() => fs.renameSync('missing', 'other'));
show(() => fs.writeFileSync('/nope/dir/file', 'x'));
show(() => fs.openSync('main.js', 'wx'));
show(() => fs.lstatSync('ghost'));
show(() => fs.readlinkSync('main.js'));
console.log(fs.statSync('ghost', { throwIfNoEntry: false }));
// One after the other: which of two pending fs calls ends first is not fixed even in Node (its thread pool).
fs.readFile('ghost', (e) => {
  console.log('cb', e.code, e.message);
  fs.promises.readFile('ghost').catch((e) => console.log('promise', e.code));
});
`),
  js('fs callbacks and promises', `
const fs = require('fs');
const fsp = require('fs/promises');
fs.writeFile('cb.txt', 'one', (err) => {
  console.log('write', err);
  fs.readFile('cb.txt', 'utf8', (err, d) => {
    console.log('read', err, d);
    fs.stat('cb.txt', (e, s) => { console.log('stat', s.size); fs.unlink('cb.txt', (e) => { console.log('unlink', e); promises(); }); });
  });
});
// After the callbacks: two chains at once finish in an order even Node does not fix (its thread pool).
const promises = async () => {
  await fsp.writeFile('p.txt', 'two');
  await fsp.appendFile('p.txt', '!');
  console.log('p', await fsp.readFile('p.txt', 'utf8'), (await fsp.stat('p.txt')).size);
  await fsp.mkdir('pd/x', { recursive: true });
  console.log((await fsp.readdir('pd')), await fsp.access('p.txt'));
  const h = await fsp.open('p.txt', 'r'); const { bytesRead, buffer } = await h.read(Buffer.alloc(10), 0, 10, 0); await h.close();
  console.log(bytesRead, buffer.toString('utf8', 0, bytesRead));
  await fsp.rm('pd', { recursive: true }); await fsp.unlink('p.txt');
  console.log('done', fs.existsSync('p.txt'));
};
`),
  js('fs streams', `
const fs = require('fs');
fs.writeFileSync('big.txt', 'line\\n'.repeat(20000));
let n = 0;
const r = fs.createReadStream('big.txt', { highWaterMark: 4096 });
r.on('open', () => console.log('open'));
r.on('data', (c) => { n += c.length; });
r.on('end', () => {
  console.log('read', n);
  const w = fs.createWriteStream('copy.txt');
  fs.createReadStream('big.txt').pipe(w);
  w.on('finish', () => { console.log('copied', fs.statSync('copy.txt').size); fs.unlinkSync('copy.txt'); fs.unlinkSync('big.txt'); });
});
r.on('close', () => console.log('close'));
`),
  js('path', `
const path = require('path');
console.log(path.join('/a/b', '../c', './d'), path.join('a', '', 'b/'), path.join(), path.normalize('/a//b/../c/.'), path.normalize('./x/..'));
console.log(path.resolve('/x', 'y', '..', 'z'), path.resolve('/') , path.relative('/a/b/c', '/a/d'), path.relative('/a', '/a'));
console.log(path.dirname('/a/b/'), path.dirname('a'), path.basename('/a/b.txt', '.txt'), path.basename('/a/b/'), path.extname('x.tar.gz'), path.extname('.bashrc'));
console.log(path.parse('/home/u/file.txt'), path.format({ dir: '/x', name: 'n', ext: '.e' }), path.isAbsolute('a'), path.sep, path.delimiter);
console.log(path.posix === path, path.parse('rel'));
`),
  js('events', `
const EventEmitter = require('events');
const { once } = require('events');
const e = new EventEmitter();
e.on('x', (a, b) => console.log('x1', a, b));
e.prependListener('x', () => console.log('x0'));
e.once('x', () => console.log('once'));
console.log(e.emit('x', 1, 2), e.emit('x', 3), e.emit('nothing'), e.listenerCount('x'), e.eventNames());
try { e.emit('error', new Error('unhandled ee')); } catch (err) { console.log('threw', err.message); }
class My extends EventEmitter {}
const m = new My(); m.on('newListener', (n) => console.log('new', n)); m.on('a', () => {});
m.removeAllListeners('a'); console.log(m.listenerCount('a'), EventEmitter.defaultMaxListeners);
once(m, 'go').then((args) => console.log('once promise', args)); m.emit('go', 1, 2);
`),
  js('buffer', `
const b = Buffer.from('héllo wörld');
console.log(b.length, b.toString('hex'), b.toString('base64'), Buffer.from('aGk=', 'base64').toString(), b.slice(0, 5).toString());
console.log(Buffer.concat([Buffer.from('a'), Buffer.from('b')]), Buffer.alloc(3, 1), Buffer.byteLength('é'), Buffer.isBuffer(b));
const c = Buffer.alloc(8); c.writeUInt32BE(0xdeadbeef, 0); c.writeInt16LE(-2, 4); console.log(c, c.readUInt32BE(0).toString(16), c.readInt16LE(4));
console.log(Buffer.compare(Buffer.from('a'), Buffer.from('b')), b.equals(Buffer.from('héllo wörld')), b.indexOf('w'), JSON.stringify(Buffer.from('ab')));
console.log(require('buffer').Buffer === Buffer);
`),
  js('stream', `
const { Readable, Writable, Transform, PassThrough, pipeline } = require('stream');
const src = Readable.from(['a', 'b', 'c']);
const up = new Transform({ transform(chunk, enc, cb) { cb(null, chunk.toString().toUpperCase()); } });
const out = [];
const sink = new Writable({ write(chunk, enc, cb) { out.push(chunk.toString()); cb(); } });
pipeline(src, up, sink, (err) => {
  console.log('pipeline done', err, out);
  const r = new Readable({ read() {} });
  r.push('x'); r.push('y'); r.push(null);
  let s = ''; r.on('data', (d) => (s += d)); r.on('end', () => console.log('ended', s));
  const pt = new PassThrough(); pt.end('through'); pt.on('data', (d) => console.log('pt', d.toString()));
});
(async () => { let t = ''; for await (const chunk of Readable.from(['1', '2', '3'])) t += chunk; console.log('async iter', t); })();
const w = new Writable({ highWaterMark: 2, write(c, e, cb) { setTimeout(cb, 1); } });
console.log('write ok?', w.write('abc')); w.on('drain', () => console.log('drain'));
`),
  js('stdin pipe and readline', `
const readline = require('readline');
const rl = readline.createInterface({ input: process.stdin });
let n = 0;
rl.on('line', (l) => { n++; console.log('line:', l.toUpperCase()); });
rl.on('close', () => console.log('lines', n));
`, [], 'one\ntwo\nthree\n'),
  js('stdin data events', `
let data = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', (c) => (data += c));
process.stdin.on('end', () => console.log(JSON.stringify(data), data.length));
`, [], 'some input\nmore\n'),
  js('readline keypress events', `
const readline = require('readline');
readline.emitKeypressEvents(process.stdin);
process.stdin.on('keypress', (s, k) => console.log(JSON.stringify([s, k.name, k.ctrl, k.meta, k.shift, k.code, k.sequence])));
`, [], 'aB3 \r\n\t\x7f\x1b[A\x1b[1;5C\x1b[3~\x01\x1bx\x1bOP\x1b[15~\x1b[Z'),
  js('string_decoder, querystring, url', `
const { StringDecoder } = require('string_decoder');
const d = new StringDecoder('utf8'); const euro = Buffer.from('€');
console.log(JSON.stringify(d.write(euro.slice(0, 1))), d.write(euro.slice(1)), d.end());
const qs = require('querystring');
console.log(qs.parse('a=1&b=2&a=3&c=x%20y+z'), qs.stringify({ a: [1, 2], b: 'x y', c: '' }));
const url = require('url');
const u = new URL('https://user:pw@example.com:8080/p/a/t/h?query=string#hash');
console.log(u.hostname, u.port, u.pathname, u.searchParams.get('query'), u.hash);
console.log(url.fileURLToPath('file:///tmp/a%20b'), url.pathToFileURL('/tmp/a b').href);
console.log(url.parse('http://x.com:81/a?b=c').query, url.format({ protocol: 'http:', host: 'h.com', pathname: '/p' }));
`),
  js('crypto', `
const crypto = require('crypto');
for (const a of ['md5', 'sha1', 'sha256', 'sha512']) console.log(a, crypto.createHash(a).update('hello ').update('world').digest('hex'));
console.log(crypto.createHash('sha256').update(Buffer.from([1, 2, 3])).digest('base64'));
console.log(crypto.createHmac('sha256', 'key').update('data').digest('hex'));
console.log(crypto.randomBytes(16).length, /^[0-9a-f-]{36}$/.test(crypto.randomUUID()));
const r = crypto.randomInt(10); console.log(r >= 0 && r < 10, crypto.timingSafeEqual(Buffer.from('a'), Buffer.from('a')));
`),
  js('assert', `
const assert = require('assert');
const show = (f) => { try { f(); console.log('ok'); } catch (e) { console.log(e.name, e.code, JSON.stringify(e.message)); } };
show(() => assert.strictEqual(1, 2));
show(() => assert.deepStrictEqual({ a: 1, b: [1, 2] }, { a: 1, b: [1, 3] }));
show(() => assert.deepStrictEqual({ a: 1 }, { a: 1 }));
show(() => assert.equal(1, '1'));
show(() => assert.ok(0));
show(() => assert(false, 'custom message'));
show(() => assert.throws(() => { throw new TypeError('x'); }, TypeError));
show(() => assert.throws(() => {}));
show(() => assert.notStrictEqual(1, 1));
show(() => assert.match('abc', /x/));
assert.rejects(Promise.reject(new Error('r')), /r/).then(() => console.log('rejects ok'));
require('assert/strict').equal(1, 1);
`),
  js('os', `
const os = require('os');
console.log(os.EOL === '\\n', os.platform(), typeof os.hostname(), os.type(), typeof os.release(), os.tmpdir(), os.homedir() === process.env.HOME);
console.log(Array.isArray(os.cpus()), typeof os.totalmem(), os.endianness(), os.constants.signals.SIGINT, os.constants.signals.SIGTERM);
`),
  js('child_process', `
const cp = require('child_process');
console.log(JSON.stringify(cp.execSync('echo hello; echo err >&2', { stdio: 'pipe' }).toString()));
console.log(cp.execSync('printf "%s" "$0"', { encoding: 'utf8', shell: '/bin/sh' }).length > 0);
const r = cp.spawnSync('sh', ['-c', 'cat; echo bye; exit 3'], { input: 'piped in\\n', encoding: 'utf8' });
console.log(r.status, r.signal, JSON.stringify(r.stdout), JSON.stringify(r.stderr));
try { cp.execSync('exit 2', { stdio: 'pipe' }); } catch (e) { console.log('failed', e.status, e.message.split('\\n')[0]); }
const bad = cp.spawnSync('no-such-cmd-xyz'); console.log(bad.error.code, bad.error.syscall, bad.error.message);
cp.exec('echo async; exit 1', (err, out, errOut) => {
  console.log('exec', err && err.code, JSON.stringify(out), JSON.stringify(errOut));
  const c = cp.spawn('sh', ['-c', 'read x; echo "got $x"; echo e >&2']);
  let o = '';
  c.stdout.on('data', (d) => (o += d));
  c.on('exit', (code, sig) => console.log('exit', code, sig));
  c.on('close', (code) => {
    console.log('close', code, JSON.stringify(o));
    cp.execFile('sh', ['-c', 'echo $1', 'x', 'arg1'], (e, out) => console.log('execFile', e, out.trim()));
    const k = cp.spawn('sleep', ['5']);
    k.on('exit', (code, sig) => console.log('killed', code, sig));
    setTimeout(() => k.kill(), 300);
  });
  c.stdin.end('input\\n');
  cp.spawn('no-such-cmd-xyz').on('error', (e) => console.log('spawn error', e.code, e.message));
});
`),
  { name: 'esm modules', files: {
    'main.mjs': `
import fs, { readFileSync } from 'fs';
import * as path from 'node:path';
import def, { named } from './lib.mjs';
import cjs from './old.cjs';
import { fromCjs } from './old.cjs';
import data from './data.json' with { type: 'json' };
export const mine = 1;
console.log(def(), named, typeof fs.readFileSync === typeof readFileSync, path.basename('/a/b.c'));
console.log(cjs.fromCjs, fromCjs, data.v);
console.log(import.meta.url.startsWith('file:///'), typeof import.meta.url, import.meta.url.endsWith('/main.mjs'));
const dyn = await import('./lib.mjs'); console.log('dynamic', dyn.named, Object.keys(dyn).sort());
const { cyc } = await import('./cyc-a.mjs'); console.log(cyc());
console.log(typeof require, typeof module, typeof __filename);
await new Promise((r) => setTimeout(r, 5)); console.log('tla done');
`,
    'lib.mjs': "export default function () { return 'default fn'; }\nexport const named = 'named';\nexport let counter = 0;\nexport function inc() { counter++; }\nexport * from './more.mjs';\n",
    'more.mjs': "export const more = 'more', also = [1, 2].map((x, i) => x + i), last = { a: 1, b: 2 }; // a, comment\nexport let later\nexport var v1 = 1,\n  v2 = 2;\n",
    'old.cjs': 'exports.fromCjs = "cjs value";\n',
    'data.json': '{"v": 42}\n',
    'cyc-a.mjs': "import { b } from './cyc-b.mjs';\nexport function a() { return 'a'; }\nexport function cyc() { return a() + b(); }\n",
    'cyc-b.mjs': "import { a } from './cyc-a.mjs';\nexport function b() { return 'b' + typeof a; }\n",
  }, args: ['main.mjs'] },
  { name: 'type module package', files: {
    'package.json': '{"type": "module"}',
    'main.js': "import { x } from './x.js';\nimport { createRequire } from 'module';\nconst require = createRequire(import.meta.url);\nconsole.log(x, require('./c.cjs'));\nconst viaRequire = require('./x.js');\nconsole.log(viaRequire.x, viaRequire === require('./x.js'));\ntry { require('./tla.js'); } catch (e) { console.log(e.code); }\n",
    'tla.js': 'await 1;\nexport const t = 1;\n',
    'x.js': 'export const x = "esm via type";\n',
    'c.cjs': 'module.exports = "cjs in esm pkg";\n',
  }, args: ['main.js'] },
  { name: 'esm error', files: { 'main.mjs': "import { nope } from './missing.mjs';\n" }, args: ['main.mjs'] },
  { name: 'esm missing export', files: { 'main.mjs': "import { there, nope } from './lib.mjs';\nconsole.log(there);\n", 'lib.mjs': 'export const there = 1;\n' }, args: ['main.mjs'] },
  { name: 'require of an ES module from CommonJS', files: {
    'main.js': "const m = require('./lib.mjs');\nconsole.log(m.default(), m.helper, Object.keys(m));\n",
    'lib.mjs': "import { dep } from './dep.mjs';\nexport default function () { return 'esm default'; }\nexport const helper = dep + '!';\n",
    'dep.mjs': "export const dep = 'dep';\n",
  }, args: ['main.js'] },
  { name: 'esm: comments inside import and export braces, a module binding its own process (as chalk and supports-color do)', files: {
    'main.mjs': "import process from 'node:process';\nimport { // eslint-disable-line import/order\n\ta,\n\t/* the second */ b,\n} from './lib.mjs';\nimport * as all from './lib.mjs';\nconst global = 'own global';\nconsole.log(a, b, global, typeof process.argv, Object.keys(all));\n",
    'lib.mjs': "export const a = 1, b = 2;\nconst c = 3;\nexport { // re-exported\n\tc as d, /* and */ c,\n};\n",
  }, args: ['main.mjs'] },
  { name: 'CommonJS module declaring its own process and Buffer (as npm-install-checks does), strict mode kept', files: {
    'main.js': "'use strict';\nconst process = require('process');\nconst { Buffer } = require('buffer');\nconst setTimeout = 1;\nconsole.log(typeof process.exit, Buffer.from('hi').toString('hex'), setTimeout, arguments.length, (function () { return this; })());\nrequire('./lib.js');\n",
    'lib.js': "#!/usr/bin/env node\nconst console = { log: (...a) => process.stdout.write(a.join('|') + '\\n') };\nconsole.log('own', 'console', typeof module.exports);\n",
  }, args: ['main.js'] },
  js('missing script', '', ['../nonexistent.js']),
  js('zlib, vm, perf_hooks and missing built-ins', `
const zlib = require('zlib');
console.log(zlib.gunzipSync(Buffer.from('H4sIAAAAAAAAA8tIzcnJV8hAIqtyMpMAjxs4VRYAAAA=', 'base64')).toString());
console.log(zlib.inflateSync(Buffer.from('eJxLTEpOBCMAET0Dcw==', 'base64')).toString(), zlib.inflateRawSync(Buffer.from('K0osVyiCYAA=', 'base64')).toString());
const big = 'agentOS '.repeat(1000);
console.log(zlib.gunzipSync(zlib.gzipSync(big)).toString() === big, zlib.unzipSync(zlib.deflateSync(big)).length, zlib.gzipSync(big).length < 200);
zlib.gzip('cb', (e, b) => zlib.gunzip(b, (e2, r) => console.log('callback', e, e2, r.toString())));
try { zlib.gunzipSync(Buffer.from('not gzip')); } catch (e) { console.log('bad input', e.code); }
const vm = require('vm');
console.log(vm.runInNewContext('a + b', { a: 1, b: 2 }), new vm.Script('6 * 7').runInThisContext());
console.log(typeof require('perf_hooks').performance.now());
console.log(typeof require('util').promisify);
`),
  js('zlib stream classes: written in chunks, piped, flushed, read unfinished with finishFlush, truncated input', `
const zlib = require('zlib');
const { Transform, Readable } = require('stream');
const { Z_SYNC_FLUSH } = zlib.constants;
const data = Buffer.from(Array.from({ length: 4000 }, (_, i) => 'line ' + i + ' of agentOS\\n').join(''));
const gz = zlib.gzipSync(data);
const collect = (s) => new Promise((ok, fail) => { const out = []; s.on('data', (c) => out.push(c)).on('end', () => ok(Buffer.concat(out))).on('error', fail); });
(async () => {
  for (const [name, s, un] of [['Gzip', new zlib.Gzip({ level: 9 }), zlib.gunzipSync], ['DeflateRaw', zlib.createDeflateRaw(), zlib.inflateRawSync], ['Deflate', zlib.createDeflate(), zlib.unzipSync]]) {
    const done = collect(s);
    for (let i = 0; i < data.length; i += 5000) s.write(data.subarray(i, i + 5000));
    s.end();
    console.log(name, s instanceof Transform, un(await done).equals(data));
  }
  console.log('piped', (await collect(Readable.from([gz.subarray(0, 10), gz.subarray(10, 3000), gz.subarray(3000)]).pipe(zlib.createUnzip()))).equals(data));
  const d = zlib.createDeflate();
  const got = [];
  d.on('data', (c) => got.push(c));
  d.write('first part ');
  await new Promise((ok) => d.flush(Z_SYNC_FLUSH, ok));
  console.log('flushed', zlib.inflateSync(Buffer.concat(got), { finishFlush: Z_SYNC_FLUSH }).toString());
  try { zlib.gunzipSync(gz.subarray(0, 50)); } catch (e) { console.log('truncated', e.code, e.errno, e.message); }
  await collect(zlib.createGunzip().end(Buffer.from('definitely not gzip data'))).catch((e) => console.log('stream error', e.code, e.errno));
})();
`),
  js('EventEmitter off is removeListener; process.report, v8 heap statistics, http2 constants (what npm reads at load)', `
const { EventEmitter } = require('events');
class M extends EventEmitter { removeListener(e, h) { return this.off(e, h); } off(e, h) { return super.off(e, h); } }
const m = new M();
const f = () => {};
m.on('x', f);
m.removeListener('x', f);
console.log(m.listenerCount('x'), EventEmitter.prototype.off === EventEmitter.prototype.removeListener);
// An emitter replaying a cached event to late listeners through on(), as make-fetch-happen's streams do: once() and events.once() go through it.
class Caching extends EventEmitter { on(e, h) { if (e === 'integrity' && this.seen) { h(this.seen); return this; } return super.on(e, h); } emit(e, v) { if (e === 'integrity') this.seen = v; return super.emit(e, v); } }
const cached = new Caching();
cached.emit('integrity', 'sha512-x');
cached.once('integrity', (v) => console.log('once saw', v));
require('events').once(cached, 'integrity').then(([v]) => console.log('events.once saw', v));
const r = process.report.getReport();
console.log(typeof process.report.excludeNetwork, typeof r.header, Array.isArray(r.sharedObjects));
const h = require('v8').getHeapStatistics();
console.log(h.heap_size_limit > 0, h.used_heap_size > 0, h.total_heap_size >= h.used_heap_size);
const { constants: c } = require('http2');
console.log(c.HTTP2_HEADER_LOCATION, c.HTTP2_HEADER_CONTENT_TYPE, c.HTTP2_HEADER_STATUS, c.HTTP2_METHOD_GET, c.HTTP_STATUS_TOO_MANY_REQUESTS, c.HTTP_STATUS_INTERNAL_SERVER_ERROR, c.HTTP2_HEADER_USER_AGENT);
`),
  js('https module: Agent, globalAgent, the protocol each client takes, bad URLs (what npm\'s agent reads at load)', `
const http = require('http');
const https = require('https');
const a = new https.Agent({ keepAlive: true });
console.log(a instanceof http.Agent, a.defaultPort, a.protocol, https.globalAgent instanceof https.Agent, https.globalAgent.defaultPort);
console.log(new http.Agent().defaultPort, new http.Agent().protocol, typeof https.request, typeof https.get, typeof https.Server);
class Sub extends https.Agent { constructor() { super({ maxSockets: 3 }); } }
console.log(new Sub().defaultPort, typeof new Sub().sockets, typeof new Sub().freeSockets);
for (const [mod, url] of [[https, 'http://x/'], [http, 'https://x/'], [https, 'ftp://x/']]) {
  try { mod.request(url); } catch (e) { console.log(e.code, e.message); }
}
try { https.get('not a url'); } catch (e) { console.log(e.code, e.name); }
`),
  js('new Module(file) as npm init\'s promzard makes one: require, _resolveFilename, _nodeModulePaths', `
const Module = require('module');
const fs = require('fs');
const path = require('path');
fs.mkdirSync('node_modules/dep', { recursive: true });
fs.writeFileSync('node_modules/dep/index.js', 'module.exports = "dep!";');
fs.writeFileSync('lib.js', 'module.exports = 42;');
const file = path.resolve('input.js');
const mod = new Module(file, module);
console.log(mod.id === file, mod.filename, mod.loaded, JSON.stringify(mod.exports), mod.parent === module, Module.Module === Module);
mod.filename = file;
mod.paths = Module._nodeModulePaths(path.dirname(file));
console.log(mod.require('./lib.js'), mod.require('dep'), Module._resolveFilename('./lib.js', mod) === path.resolve('lib.js'));
console.log(mod.paths[0] === path.resolve('node_modules'), mod.paths.at(-1), Module._nodeModulePaths('/a/node_modules/b'));
try { mod.require('./missing'); } catch (e) { console.log(e.code); }
`),
  js('fs fd forms: futimes, fchmod, fchown (sync and callback) as node-tar sets an extracted file', `
const fs = require('fs');
const fd = fs.openSync('f.txt', 'w', 0o600);
fs.writeSync(fd, 'data');
fs.futimesSync(fd, 1000, new Date(2000000));
fs.fchmodSync(fd, 0o640);
fs.fchownSync(fd, fs.fstatSync(fd).uid, fs.fstatSync(fd).gid);
let st = fs.statSync('f.txt');
console.log(st.mtimeMs, st.atimeMs, (st.mode & 0o777).toString(8));
fs.futimes(fd, 5, 6, (e) => fs.fchmod(fd, '600', (e2) => {
  st = fs.statSync('f.txt');
  console.log(e, e2, st.mtimeMs, st.atimeMs, (st.mode & 0o777).toString(8), typeof fs.promises.futimes);
  fs.closeSync(fd);
  try { fs.futimesSync(fd, 1, 1); } catch (e) { console.log(e.code, e.syscall); }
}));
`),
  js('dns.lookup of addresses and localhost (what npm\'s agent asks before it connects)', `
const dns = require('dns');
const look = (name, ...a) => new Promise((ok) => dns.lookup(...a, (e, x, f) => { console.log(name, e, x, f); ok(); }));
(async () => {
  await look('v4', '127.0.0.1');
  await look('v6', '::1', { family: 6 });
  await look('localhost', 'localhost', { family: 4, hints: dns.ADDRCONFIG });
  await look('all', '10.1.2.3', { all: true });
  console.log('promise', await require('dns/promises').lookup('127.0.0.1'));
  console.log('promise family', await dns.promises.lookup('localhost', 4));
  console.log(typeof dns.ADDRCONFIG, typeof dns.V4MAPPED);
})();
`),
  js('util.parseArgs and styleText', `
const { parseArgs, styleText } = require('util');
const options = { verbose: { type: 'boolean', short: 'v' }, name: { type: 'string', short: 'n', default: 'anon' }, tag: { type: 'string', multiple: true } };
console.log(parseArgs({ options, allowPositionals: true }));
console.log(parseArgs({ args: ['-vn', 'bob', '--tag=a', '--tag', 'b', '--', '-x'], options, allowPositionals: true }));
for (const args of [['--nope'], ['pos'], ['--name'], ['--verbose=yes']]) {
  try { parseArgs({ args, options }); } catch (e) { console.log(e.code, e.message); }
}
console.log(parseArgs({ args: ['--x', '-y'], strict: false }), JSON.stringify(styleText(['bold', 'red'], 'hi')));
`, ['-v', 'file.txt', '--name', 'cli']),
  { name: 'eval and print', files: {}, args: ['-p', '[1, 2].map((x) => x * 2).concat(require("path").sep)'] },
  { name: 'eval', files: {}, args: ['-e', 'console.log(process.argv.length, __filename, typeof require); process.exitCode = 4', 'arg'] },
  { name: 'stdin script', files: {}, args: ['-'], stdin: 'console.log("from stdin", 1 + 1)' },
  { name: 'syntax error', files: { 'main.js': 'let x = ;\n' }, args: ['main.js'] },
];

