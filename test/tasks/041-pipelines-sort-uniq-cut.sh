# Log analysis with pipelines: top IPs, status codes, paths, with sort/uniq/cut/tr.
cat > access.log <<'L'
10.0.0.1 - - [01/Jan/2024:10:00:00] "GET /index.html HTTP/1.1" 200 512
10.0.0.2 - - [01/Jan/2024:10:00:01] "GET /about HTTP/1.1" 404 0
10.0.0.1 - - [01/Jan/2024:10:00:02] "POST /api/login HTTP/1.1" 200 64
10.0.0.3 - - [01/Jan/2024:10:00:03] "GET /index.html HTTP/1.1" 200 512
10.0.0.1 - - [01/Jan/2024:10:00:04] "GET /missing HTTP/1.1" 404 0
10.0.0.2 - - [01/Jan/2024:10:00:05] "GET /index.html HTTP/1.1" 500 0
L
cut -d' ' -f1 access.log | sort | uniq -c | sort -k1,1nr -k2
awk '{ print $9 }' access.log | sort | uniq -c
cut -d'"' -f2 access.log | cut -d' ' -f2 | sort -u
grep -c ' 404 ' access.log
awk '{ bytes += $10 } END { print bytes }' access.log
tr -s ' ' '\n' < access.log | grep -c '^10\.'
sort -t' ' -k9,9n -k1,1 access.log | head -2 | cut -c1-30
