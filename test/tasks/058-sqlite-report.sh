# SQLite as a scratch database for a report: CTEs, window functions, date functions on fixed dates.
sqlite3 t.db <<'SQL'
CREATE TABLE visits(day TEXT, page TEXT, n INTEGER);
INSERT INTO visits VALUES
 ('2024-03-01','home',10),('2024-03-01','docs',4),('2024-03-02','home',7),
 ('2024-03-02','docs',9),('2024-03-03','home',12),('2024-03-03','blog',1);
SQL
sqlite3 t.db "WITH d AS (SELECT day, sum(n) t FROM visits GROUP BY day) SELECT day, t, sum(t) OVER (ORDER BY day) FROM d;"
sqlite3 t.db "SELECT page, n, rank() OVER (PARTITION BY day ORDER BY n DESC) FROM visits WHERE day = '2024-03-02';"
sqlite3 t.db "SELECT strftime('%w %j', '2024-03-03'), date('2024-02-28', '+2 days');"
sqlite3 -separator ' ; ' t.db "SELECT page, max(n) FROM visits GROUP BY page ORDER BY page;"
sqlite3 t.db ".tables"
sqlite3 t.db ".schema visits"
