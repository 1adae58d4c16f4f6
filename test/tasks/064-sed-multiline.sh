# sed beyond one-liners: ranges, hold space, joining continuation lines, a script file.
cat > in.txt <<'T'
[server]
host = a
port = 1
[client]
host = b
timeout = \
  30
T
sed -n '/^\[client\]/,$p' in.txt
sed -e ':a' -e '/\\$/N; s/\\\n *//; ta' in.txt | tail -n 1
sed -n '1!G;h;$p' in.txt | head -3
cat > edit.sed <<'S'
/^\[/ {
  s/\[\(.*\)\]/== \1 ==/
  b
}
s/ = /=/
S
sed -f edit.sed in.txt
sed '2q' in.txt
sed -n '$=' in.txt
