# SQLite and jq together: JSON rows into a table, an update, JSON back out.
cat > items.json <<'J'
[{"sku":"A1","qty":3},{"sku":"B2","qty":0},{"sku":"C3","qty":12}]
J
jq -r '.[] | "INSERT INTO stock VALUES(\(.sku|@json), \(.qty));"' items.json > load.sql
sed -i 's/"/'"'"'/g' load.sql
{ echo 'CREATE TABLE stock(sku TEXT, qty INTEGER);'; cat load.sql; } | sqlite3 shop.db
sqlite3 shop.db "UPDATE stock SET qty = qty + 10 WHERE qty = 0; SELECT changes();"
sqlite3 shop.db "SELECT sku || ':' || qty FROM stock ORDER BY qty;"
sqlite3 -json shop.db "SELECT * FROM stock WHERE qty > 5 ORDER BY sku;" | jq -c '.'
