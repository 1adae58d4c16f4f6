# Python's sqlite3 module writes a database that the sqlite3 CLI then reads, and back.
cat > load.py <<'PY'
import sqlite3
con = sqlite3.connect("notes.db")
con.execute("CREATE TABLE notes(id INTEGER PRIMARY KEY, title TEXT, tags TEXT)")
con.executemany("INSERT INTO notes(title, tags) VALUES (?, ?)",
                [("groceries", "home"), ("fix bug #12", "work,urgent"), ("café list", "home")])
con.commit()
print(con.execute("SELECT count(*) FROM notes").fetchone()[0], "notes")
PY
python3 load.py
sqlite3 notes.db "SELECT id, title FROM notes WHERE tags LIKE '%home%' ORDER BY id;"
sqlite3 notes.db "INSERT INTO notes(title, tags) VALUES ('from cli', 'work');"
python3 -c 'import sqlite3; print(sorted(r[0] for r in sqlite3.connect("notes.db").execute("SELECT title FROM notes WHERE tags LIKE ?", ("%work%",))))'
