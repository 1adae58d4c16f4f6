# SQLite: create a schema, import CSV, query with joins and aggregates.
printf 'id,name,dept\n1,ana,eng\n2,bo,ops\n3,cy,eng\n4,dé,sales\n' > staff.csv
sqlite3 company.db <<'SQL'
CREATE TABLE staff(id INTEGER PRIMARY KEY, name TEXT, dept TEXT);
CREATE TABLE pay(staff_id INTEGER, amount INTEGER);
INSERT INTO pay VALUES (1, 100), (2, 80), (3, 120), (1, 20), (4, 70);
SQL
sqlite3 company.db ".mode csv" ".import --skip 1 staff.csv staff"
sqlite3 company.db 'SELECT count(*) FROM staff;'
sqlite3 company.db 'SELECT s.dept, sum(p.amount) FROM staff s JOIN pay p ON p.staff_id = s.id GROUP BY s.dept ORDER BY 2 DESC;'
sqlite3 -header -csv company.db 'SELECT name, dept FROM staff ORDER BY name;'
sqlite3 company.db 'SELECT nope FROM staff;' 2>/dev/null; echo "bad query: $?"
