# Persistence across invocations: a SQLite ledger created, appended to, then reported on.
sqlite3 ledger.db 'CREATE TABLE entry(id INTEGER PRIMARY KEY, who TEXT, amount INTEGER);'
sqlite3 ledger.db "INSERT INTO entry(who, amount) VALUES ('ana', 120), ('bo', -40), ('zoë', 15);"
sqlite3 ledger.db 'SELECT count(*) FROM entry;'
#--- next invocation ---
sqlite3 ledger.db "INSERT INTO entry(who, amount) VALUES ('ana', -20), ('bo', 70);"
sqlite3 -header -column ledger.db 'SELECT who, sum(amount) AS total FROM entry GROUP BY who ORDER BY who;'
#--- next invocation ---
sqlite3 ledger.db 'SELECT max(id), sum(amount) FROM entry;'
sqlite3 ledger.db .dump | grep -c INSERT
ls -l ledger.db | awk '{print $1, $5}'
