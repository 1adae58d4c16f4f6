// The sqlite3 differential cases: fixtures and command lines (run by sqlite3.test.ts).

export interface Case {
  cmd: string;
  stdin?: string;
  /** Skip the stderr comparison (text we deliberately do not reproduce). */
  ignoreStderr?: boolean;
}

/**
 * Cases known to differ from the host's sqlite3 3.40, with the reason. Keyed
 * by command line. Most come from the library: agentOS runs SQLite 3.54 (sql.js).
 */
export const divergences: Record<string, string> = {
  "sqlite3 notadb.txt 'SELECT 1'; echo rc=$?":
    'SQLite 3.54 (sql.js) reads the database header when preparing any statement: a file that is not a database fails even `SELECT 1`, which 3.40 runs',
  "sqlite3 :memory: 'SELECT 0.1 + 0.2, 1.0 / 3, 2.5e15, 100.0 / 7'":
    'SQLite 3.54 renders REAL values with up to 17 significant digits (0.30000000000000004); 3.40 with 15 (0.3)',
  'sqlite3 -version': 'the version and source id are SQLite 3.54.1\'s (sql.js), not 3.40.1\'s',
  "sqlite3 :memory: '.help' | grep -c '^\\.'":
    '.help lists only the dot-commands agentOS implements (23 of 3.40\'s 66)',
};

/** SQL that builds the fixture database (run by the host's sqlite3 at setup). */
export const FIXTURE_SQL = `
CREATE TABLE people(id INTEGER PRIMARY KEY, name TEXT NOT NULL, age INTEGER, city TEXT);
INSERT INTO people VALUES(1,'alice',30,'Paris'),(2,'bob',25,NULL),(3,'carol',35,'Berlin'),(4,'dave',NULL,'Paris'),(5,'Ève',28,'Zürich');
CREATE TABLE orders(id INTEGER PRIMARY KEY AUTOINCREMENT, person INTEGER REFERENCES people(id), item TEXT, price REAL, qty INTEGER DEFAULT 1);
INSERT INTO orders(person,item,price,qty) VALUES(1,'book',12.5,2),(1,'pen',1.25,10),(3,'lamp',40.0,1),(2,'mug, large',7.75,3),(5,'say "hi"',0.5,4);
CREATE INDEX orders_person ON orders(person);
CREATE VIEW spend AS SELECT p.name, sum(o.price*o.qty) AS total FROM people p JOIN orders o ON o.person=p.id GROUP BY p.name;
CREATE TRIGGER people_upd AFTER UPDATE ON people BEGIN INSERT INTO orders(person,item,price) VALUES(new.id,'updated',0); END;
CREATE TABLE "odd table"("a b" TEXT, "select" INTEGER);
INSERT INTO "odd table" VALUES('x y',1),('it''s',2);
CREATE TABLE blobs(k TEXT, v BLOB);
INSERT INTO blobs VALUES('bin',x'00ff10'),('txt',x'414243'),('empty',x'');
CREATE TABLE multi(t TEXT);
INSERT INTO multi VALUES('line1
line2'),('tab	here'),('cr'||char(13)||'x');
`;

export const FILES: Record<string, string> = {
  'people.csv': 'name,age,city\nzoe,41,Rome\n"smith, j",52,"New\nYork"\nquote,7,"say ""x"""\n',
  'dup.csv': 'a,A,,b\n1,2,3,4\n5,6,7,8\n',
  'ragged.csv': 'x,y\n1,2,3\n4\n5,6\n',
  'pipe.txt': 'p|q\n1|2\n3|4\n',
  'tabs.tsv': 'c1\tc2\nv1\tv2\n',
  'bom.csv': '\ufeffid,val\n1,one\n',
  'crlf.csv': 'a,b\r\n1,2\r\n3,4\r\n',
  'empty.csv': '',
  'notadb.txt': `${'this is not a database file\n'.repeat(8)}`,
  'script.sql': 'CREATE TABLE s(a, b);\nINSERT INTO s VALUES(1, \'one\');\n-- a comment\nINSERT INTO s VALUES(2, \'two\'); INSERT INTO s VALUES(3, NULL);\nSELECT * FROM s ORDER BY a;\n',
  'trig.sql': 'CREATE TABLE log(x);\nCREATE TABLE t(a);\nCREATE TRIGGER tr AFTER INSERT ON t\nBEGIN\n  INSERT INTO log VALUES(new.a);\n  INSERT INTO log VALUES(new.a * 10);\nEND;\nINSERT INTO t VALUES(1);\nINSERT INTO t VALUES(2);\nSELECT * FROM log;\n',
  'errs.sql': 'SELECT 1;\nSELEC 2;\nSELECT 3;\nSELECT * FROM nope;\nSELECT 4;\n',
  'nested.sql': 'SELECT \'outer\';\n.read inner.sql\nSELECT \'after\';\n',
  'inner.sql': 'SELECT \'inner\';\n.quit\nSELECT \'not reached\';\n',
  'dot.sql': '.mode csv\n.headers on\nSELECT 1 AS a, \'x,y\' AS b;\n.mode list\n.separator " : "\nSELECT 1, 2;\n',
};

const C = (cmd: string, extra: Omit<Case, 'cmd'> = {}): Case => ({ cmd, ...extra });
/** A fresh writable copy of the fixture database named `name`. */
const W = (name: string) => `rm -f ${name}; cp fx.db ${name}`;

export const CASES: Case[] = [
  // Non-ASCII text: SQLite counts characters and folds only ASCII case, in every locale
  C("sqlite3 :memory: \"SELECT length('héllo'), upper('héllo wörld'), substr('αβγδ', 2, 2), hex('é'), instr('日本語', '語')\""),
  C("sqlite3 -column -header :memory: \"SELECT 'héllo' AS wörd, '日本' AS x UNION ALL SELECT 'a', 'bcd'\""),
  C("sqlite3 -box :memory: \"SELECT 'αβγ' AS k, '😀' AS v\""),
  // Plain queries and output modes
  C("sqlite3 fx.db 'SELECT * FROM people'"),
  C("sqlite3 fx.db 'SELECT name, age FROM people WHERE age > 26 ORDER BY age'"),
  C("sqlite3 -header fx.db 'SELECT * FROM people'"),
  C("sqlite3 -csv fx.db 'SELECT * FROM orders'"),
  C("sqlite3 -csv -header fx.db 'SELECT * FROM people'"),
  C("sqlite3 -json fx.db 'SELECT * FROM people'"),
  C("sqlite3 -json fx.db 'SELECT * FROM orders'"),
  C("sqlite3 -line fx.db 'SELECT * FROM people WHERE id < 3'"),
  C("sqlite3 -column fx.db 'SELECT * FROM people'"),
  C("sqlite3 -column -header fx.db 'SELECT * FROM people'"),
  C("sqlite3 -box fx.db 'SELECT * FROM people'"),
  C("sqlite3 -table fx.db 'SELECT * FROM orders'"),
  C("sqlite3 -markdown fx.db 'SELECT * FROM people'"),
  C("sqlite3 -html fx.db 'SELECT * FROM \"odd table\"'"),
  C("sqlite3 -html -header fx.db 'SELECT 1 AS \"<a>\"'"),
  C("sqlite3 -tabs fx.db 'SELECT * FROM people'"),
  C("sqlite3 -quote fx.db 'SELECT * FROM orders'"),
  C("sqlite3 -ascii fx.db 'SELECT id, name FROM people' | od -c"),
  C("sqlite3 -separator ';' fx.db 'SELECT * FROM people'"),
  C("sqlite3 -separator , -newline '|' fx.db 'SELECT id, name FROM people'"),
  C("sqlite3 -nullvalue NULL fx.db 'SELECT * FROM people'"),
  C("sqlite3 -header -noheader fx.db 'SELECT 1 AS a'"),
  C("sqlite3 -csv -separator ';' fx.db 'SELECT 1, 2'"),
  C("sqlite3 -separator ';' -csv fx.db 'SELECT 1, 2'"),
  C("sqlite3 -cmd '.mode csv' fx.db 'SELECT name, city FROM people' | od -c | head -3"),
  C("sqlite3 -cmd '.mode column' fx.db 'SELECT id, name FROM people'"),
  C("sqlite3 -cmd '.headers off' -cmd '.mode box' fx.db 'SELECT 1 AS a'"),
  C("sqlite3 -cmd '.width 3 -8' -column -header fx.db 'SELECT name, city FROM people'"),
  C("sqlite3 -cmd '.mode box --wrap 4' fx.db 'SELECT name, city FROM people'"),
  C("sqlite3 -cmd '.mode insert' fx.db 'SELECT * FROM orders'"),
  C("sqlite3 -cmd '.mode insert items' -header fx.db 'SELECT id, item FROM orders'"),
  C("sqlite3 -cmd '.mode tcl' fx.db 'SELECT * FROM \"odd table\"'"),
  C("sqlite3 -cmd '.mode line' fx.db 'SELECT * FROM spend ORDER BY name'"),
  C("sqlite3 -json fx.db 'SELECT * FROM blobs'"),
  C("sqlite3 -quote fx.db 'SELECT * FROM blobs'"),
  C("sqlite3 -csv fx.db 'SELECT * FROM blobs' | od -c"),
  C("sqlite3 fx.db 'SELECT k, hex(v), length(v) FROM blobs'"),
  C("sqlite3 -box fx.db 'SELECT * FROM multi'"),
  C("sqlite3 -column -header fx.db 'SELECT * FROM multi'"),
  C("sqlite3 -table fx.db 'SELECT * FROM multi'"),
  C("sqlite3 -json fx.db 'SELECT * FROM multi'"),
  C("sqlite3 -csv fx.db 'SELECT * FROM multi' | od -c"),
  C("sqlite3 -cmd '.mode insert' fx.db 'SELECT * FROM multi'"),
  C("sqlite3 -json fx.db 'SELECT 1 AS i, 0.5 AS f, 10.0 AS g, 1e20 AS big, NULL AS n, \"x\" AS s'"),
  C("sqlite3 -quote fx.db 'SELECT 1, 0.25, 10.0, -3, NULL, 2.5e15'"),
  C("sqlite3 -column -header fx.db 'SELECT 1 AS a WHERE 0'"),
  C("sqlite3 -json fx.db 'SELECT 1 AS a WHERE 0'"),
  C("sqlite3 fx.db 'SELECT 1; SELECT 2 AS two; SELECT 3'"),
  C("sqlite3 -header fx.db 'SELECT 1 AS a; SELECT 2 AS b'"),
  C("sqlite3 fx.db 'SELECT 1' 'SELECT 2' '.mode csv' \"SELECT 'a b', 3\""),
  C("sqlite3 fx.db 'SELECT count(*), sum(qty), max(price) FROM orders'"),
  C("sqlite3 fx.db 'SELECT * FROM spend ORDER BY total DESC'"),
  C("sqlite3 fx.db \"SELECT upper(name) || '!' FROM people WHERE city IS NULL\""),
  C("sqlite3 fx.db \"SELECT json_object('a', 1, 'b', 'two')\""),
  C("sqlite3 fx.db \"SELECT printf('%5.2f|%-4s|%d', 3.14159, 'ab', 42)\""),
  C("sqlite3 fx.db 'WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM c WHERE x<5) SELECT group_concat(x) FROM c'"),
  C("sqlite3 fx.db 'SELECT name, row_number() OVER (ORDER BY age DESC) FROM people WHERE age IS NOT NULL'"),
  C("sqlite3 fx.db 'SELECT 9223372036854775807, -9223372036854775808, 0x10'"),
  C("sqlite3 fx.db 'SELECT typeof(1), typeof(1.5), typeof(\"x\"), typeof(x\"00\"), typeof(NULL)'"),
  C("sqlite3 :memory: 'SELECT 1'"),
  C("sqlite3 :memory: 'SELECT 0.1 + 0.2, 1.0 / 3, 2.5e15, 100.0 / 7'"),
  C("sqlite3 fx.db 'SELECT name, avg(price) FROM orders JOIN people ON people.id = person GROUP BY name'"),
  C("sqlite3 fx.db 'SELECT sum(price), avg(qty), 7.0 / 2, 1e100, -1.5e-7 FROM orders'"),
  C('sqlite3 -version'),
  C("sqlite3 'SELECT 1'", { stdin: '' }),
  C("sqlite3 :memory: \"SELECT 'héllo', length('héllo')\""),
  // Input from stdin: statement splitting, comments, triggers, line numbers
  C('sqlite3 fx.db', { stdin: 'SELECT 1;\nSELECT 2; SELECT 3;\n' }),
  C('sqlite3 fx.db', { stdin: 'SELECT\n  name\nFROM people\nWHERE id = 2;\n' }),
  C('sqlite3 fx.db', { stdin: '-- comment only\n\n   \nSELECT 1; -- trailing\n/* block\ncomment */ SELECT 2;\n' }),
  C('sqlite3 fx.db', { stdin: "SELECT 'a;b';\nSELECT \"x;\" FROM (SELECT 1 AS \"x;\");\n" }),
  C('sqlite3 fx.db', { stdin: "SELECT 'multi\nline';\n" }),
  C('sqlite3 fx.db', { stdin: 'SELECT 1\n' }),
  C('sqlite3 fx.db', { stdin: 'SELECT 1\n/\nSELECT 2\ngo\n' }),
  C('sqlite3 :memory:', { stdin: 'CREATE TABLE t(a);\nCREATE TRIGGER tr AFTER INSERT ON t BEGIN\n  SELECT 1;\n  SELECT 2;\nEND;\nINSERT INTO t VALUES(1);\nSELECT count(*) FROM t;\n' }),
  C('sqlite3 :memory: < trig.sql'),
  C('sqlite3 :memory: < script.sql'),
  C('sqlite3 :memory: < errs.sql; echo rc=$?'),
  C('sqlite3 -bail :memory: < errs.sql; echo rc=$?'),
  C('sqlite3 :memory:', { stdin: '# a hash comment\nSELECT 5;\n' }),
  C('sqlite3 :memory:', { stdin: 'SELECT 1;;;\n;\nSELECT 2;\n' }),
  C('sqlite3 :memory:', { stdin: 'SELECT 1 +\n' }),
  C('sqlite3 :memory:', { stdin: "SELECT 'unterminated;\n" }),
  C('sqlite3 -echo :memory:', { stdin: 'SELECT 1;\n.print hi\n' }),
  C('sqlite3 :memory:', { stdin: 'BEGIN;\nCREATE TABLE t(a);\nINSERT INTO t VALUES(1);\nROLLBACK;\nSELECT count(*) FROM sqlite_schema;\n' }),
  // Errors and exit statuses
  C("sqlite3 :memory: 'selec 1'; echo rc=$?"),
  C("sqlite3 :memory: 'SELECT * FROM t'; echo rc=$?"),
  C("sqlite3 fx.db 'SELECT nocol FROM people'; echo rc=$?"),
  C("sqlite3 fx.db 'SELECT p.nocol FROM people p'; echo rc=$?"),
  C("sqlite3 fx.db 'SELECT id FROM people, orders'; echo rc=$?"),
  C("sqlite3 fx.db 'SELECT nofunc(1)'; echo rc=$?"),
  C("sqlite3 fx.db 'SELECT abs(1, 2)'; echo rc=$?"),
  C("sqlite3 fx.db \"SELECT 'abc\"; echo rc=$?"),
  C("sqlite3 fx.db 'SELECT 1 1'; echo rc=$?"),
  C("sqlite3 fx.db 'SELECT 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12 13'; echo rc=$?"),
  C("sqlite3 fx.db 'SELECT 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22 23, 24, 25, 26, 27, 28, 29, 30, 31, 32'; echo rc=$?"),
  C("sqlite3 fx.db 'SELECT 1; SELECT * FROM nope; SELECT 2'; echo rc=$?"),
  C("sqlite3 fx.db 'SELECT abs(-9223372036854775808)'; echo rc=$?"),
  C(`${W('e1.db')}; sqlite3 e1.db 'INSERT INTO people VALUES(1, "dup", 1, 1)'; echo rc=$?`),
  C(`${W('e2.db')}; sqlite3 e2.db 'INSERT INTO people(id) VALUES(9)'; echo rc=$?`),
  C(`${W('e3.db')}; printf 'INSERT INTO people VALUES(1,"x",1,1);\\nSELECT count(*) FROM people;\\n' | sqlite3 e3.db; echo rc=$?`),
  C("sqlite3 fx.db 'SELECT 1 +'; echo rc=$?"),
  C("sqlite3 -bogus; echo rc=$?"),
  C("sqlite3 -cmd; echo rc=$?"),
  C("sqlite3 -cmd 'selec 1' :memory: 'SELECT 2'; echo rc=$?"),
  C("sqlite3 -bail -cmd 'selec 1' :memory: 'SELECT 2'; echo rc=$?"),
  C("sqlite3 notadb.txt 'SELECT 1'; echo rc=$?"),
  C("sqlite3 notadb.txt 'SELECT * FROM t'; echo rc=$?"),
  C('mkdir -p adir; sqlite3 adir "SELECT 1"; echo rc=$?'),
  // Dot-commands
  C("sqlite3 fx.db .tables"),
  C("sqlite3 fx.db '.tables p%'"),
  C("sqlite3 fx.db .indexes"),
  C("sqlite3 fx.db '.indexes orders'"),
  C("sqlite3 fx.db .schema"),
  C("sqlite3 fx.db '.schema people'"),
  C("sqlite3 fx.db '.schema o*'"),
  C("sqlite3 fx.db '.schema --nosys'"),
  C("sqlite3 fx.db .dump"),
  C("sqlite3 fx.db '.dump people'"),
  C("sqlite3 fx.db '.dump --data-only'"),
  C("sqlite3 fx.db '.dump multi'"),
  C("sqlite3 fx.db '.dump --newlines multi'"),
  C("sqlite3 fx.db .databases | sed \"s|$PWD|PWD|\""),
  C("sqlite3 :memory: .databases"),
  C("sqlite3 :memory: .show"),
  C("sqlite3 -csv -header :memory: '.show'"),
  C("sqlite3 :memory: .mode '.mode box' .mode '.mode tabs' .mode"),
  C("sqlite3 :memory: '.mode bogus'; echo rc=$?"),
  C("sqlite3 :memory: '.headers'; echo rc=$?"),
  C("sqlite3 :memory: '.bail maybe'; echo rc=$?"),
  C("sqlite3 :memory: '.bogus'; echo rc=$?"),
  C("sqlite3 :memory: '.print a  b \"c d\"'"),
  C("sqlite3 :memory: '.separator \"\\t\" X' 'SELECT 1, 2'"),
  C("sqlite3 :memory: '.nullvalue (null)' 'SELECT NULL, 1'"),
  C("sqlite3 :memory: '.exit 3'; echo rc=$?"),
  C("sqlite3 :memory: '.quit' 'SELECT 1'; echo rc=$?"),
  C('sqlite3 :memory:', { stdin: 'SELECT 1;\n.exit 4\nSELECT 2;\n' }),
  C('sqlite3 :memory:; echo rc=$?', { stdin: 'SELECT 1;\n.quit\nSELECT 2;\n' }),
  C('sqlite3 :memory: < nested.sql'),
  C("sqlite3 :memory: '.read dot.sql'"),
  C("sqlite3 :memory: '.read nope.sql'; echo rc=$?"),
  C("rm -f out1.txt; sqlite3 fx.db '.output out1.txt' 'SELECT name FROM people' '.output' 'SELECT 42'; cat out1.txt"),
  C("rm -f out2.txt; sqlite3 fx.db '.once out2.txt' 'SELECT 1' 'SELECT 2'; cat out2.txt"),
  C("sqlite3 :memory: '.output /nonexistent/x'; echo rc=$?"),
  C("sqlite3 :memory: '.changes on' 'CREATE TABLE t(a)' 'INSERT INTO t VALUES(1),(2)' 'DELETE FROM t'"),
  C("sqlite3 :memory: '.help' | grep -c '^\\.'"),
  C("sqlite3 :memory: '.help mode' '.help import' '.help bail' '.help nothing'"),
  C("sqlite3 :memory: '.mode qbox' .mode \"SELECT 'a', 1, NULL, x'01'\""),
  C("sqlite3 :memory: '.mode box --wrap 5 --ww' \"SELECT 'hello wonderful world' AS t\""),
  // .import
  C("sqlite3 :memory: '.import --csv people.csv p' '.schema' 'SELECT * FROM p'"),
  C("sqlite3 -json :memory: '.import --csv people.csv p' 'SELECT * FROM p'"),
  C("sqlite3 :memory: '.import --csv dup.csv d' '.schema' 'SELECT * FROM d'"),
  C("sqlite3 :memory: '.import --csv ragged.csv r' 'SELECT * FROM r'"),
  C("sqlite3 :memory: '.import pipe.txt p' 'SELECT * FROM p'"),
  C("sqlite3 :memory: '.mode tabs' '.import tabs.tsv t' 'SELECT * FROM t'"),
  C("sqlite3 :memory: '.mode csv' '.import bom.csv b' '.schema' 'SELECT * FROM b'"),
  C("sqlite3 :memory: '.import --csv crlf.csv c' 'SELECT a||b FROM c'"),
  C("sqlite3 :memory: '.import --csv --skip 1 people.csv p' '.schema'"),
  C("sqlite3 :memory: 'CREATE TABLE t(a, b, c)' '.import --csv people.csv t' 'SELECT count(*), min(a) FROM t'"),
  C("sqlite3 :memory: 'CREATE TABLE t(a, b, c)' '.import --csv --skip 1 people.csv t' 'SELECT * FROM t'"),
  C("sqlite3 :memory: '.import --csv empty.csv e'; echo rc=$?"),
  C("sqlite3 :memory: '.import --csv nope.csv n'; echo rc=$?"),
  C("sqlite3 :memory: '.import people.csv'; echo rc=$?"),
  C("sqlite3 :memory: 'CREATE TABLE u(a UNIQUE, b, c)' '.import --csv people.csv u' '.import --csv people.csv u' 'SELECT count(*) FROM u'"),
  C(`${W('i1.db')}; sqlite3 i1.db '.import --csv people.csv imported'; sqlite3 i1.db 'SELECT count(*) FROM imported'`),
  // Writing databases back: persistence across invocations
  C("rm -f new1.db; sqlite3 new1.db 'CREATE TABLE t(a, b); INSERT INTO t VALUES(1, \"x\")'; sqlite3 new1.db 'SELECT * FROM t'; sqlite3 new1.db 'PRAGMA integrity_check'"),
  C("rm -f new2.db; sqlite3 new2.db 'SELECT 1'; wc -c < new2.db"),
  C(`${W('w1.db')}; sqlite3 w1.db "UPDATE people SET age = age + 1 WHERE name = 'bob'"; sqlite3 w1.db 'SELECT age FROM people WHERE id = 2; SELECT count(*) FROM orders'`),
  C(`${W('w2.db')}; sqlite3 w2.db 'DELETE FROM orders'; sqlite3 w2.db 'SELECT count(*) FROM orders; SELECT seq FROM sqlite_sequence'`),
  C(`${W('w3.db')}; sqlite3 w3.db 'BEGIN; DELETE FROM people; ROLLBACK'; sqlite3 w3.db 'SELECT count(*) FROM people'`),
  C(`${W('w4.db')}; printf 'BEGIN;\\nDELETE FROM people;\\n' | sqlite3 w4.db; sqlite3 w4.db 'SELECT count(*) FROM people'`),
  C(`${W('w5.db')}; printf 'CREATE TEMP TABLE tt(x);\\nINSERT INTO tt VALUES(7);\\nINSERT INTO people(name) SELECT x FROM tt;\\nSELECT name FROM people WHERE id = 6;\\n' | sqlite3 w5.db; sqlite3 w5.db '.tables' 'SELECT name FROM people WHERE id = 6'`),
  C(`${W('w6.db')}; sqlite3 w6.db 'CREATE TABLE z(a); DROP TABLE "odd table"; VACUUM'; sqlite3 w6.db .tables`),
  C(`${W('w7.db')}; sqlite3 w7.db 'PRAGMA user_version = 7'; sqlite3 w7.db 'PRAGMA user_version'`),
  C(`${W('w8.db')}; sqlite3 w8.db .dump > w8.sql; rm -f w8b.db; sqlite3 w8b.db < w8.sql; sqlite3 w8b.db 'SELECT count(*) FROM orders' .schema`),
  C(`${W('ro.db')}; sqlite3 -readonly ro.db 'DELETE FROM people'; echo rc=$?; sqlite3 ro.db 'SELECT count(*) FROM people'`),
  C("sqlite3 -readonly nope.db 'SELECT 1'; echo rc=$?; test -e nope.db; echo exists=$?"),
  C(`${W('op.db')}; sqlite3 :memory: '.open op.db' 'SELECT count(*) FROM people'`),
  C("rm -f ln1.db real1.db; ln -s real1.db ln1.db; sqlite3 ln1.db 'CREATE TABLE t(a)'; test -L ln1.db && echo link; sqlite3 real1.db .tables"),
  C(`rm -f fts.db; sqlite3 fts.db "CREATE VIRTUAL TABLE docs USING fts4(body); INSERT INTO docs VALUES('hello world'),('other text'); CREATE TABLE w(a INTEGER PRIMARY KEY, b) WITHOUT ROWID; INSERT INTO w VALUES(1, 'x')"; sqlite3 fts.db "SELECT * FROM docs WHERE docs MATCH 'hello'" .dump`),
  C("rm -f big.db; sqlite3 big.db 'CREATE TABLE n(i INTEGER PRIMARY KEY, sq INTEGER); WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 100000) INSERT INTO n SELECT x, x * x FROM c'; sqlite3 big.db 'SELECT count(*), sum(sq) % 1000007, max(i) FROM n; PRAGMA integrity_check'"),
  C(`${W('cl.db')}; sqlite3 -cmd 'INSERT INTO people(name) VALUES ("cmd")' cl.db 'SELECT count(*) FROM people'`),
];
