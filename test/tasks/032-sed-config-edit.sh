# Edit a config file with sed: substitute, delete, insert and append, with a backup.
cat > app.conf <<'C'
# app settings
host = localhost
port = 8080
debug = true
# end
C
sed -i.bak -e 's/^port = .*/port = 9090/' -e '/^debug/d' -e '/^host/a timeout = 30' -e '1i # generated' app.conf
cat app.conf
diff app.conf.bak app.conf; echo "diff: $?"
sed -n '/^host/,/^port/p' app.conf
sed -E 's/^([a-z]+) = (.*)$/\U\1\E=\2/' app.conf | grep =
