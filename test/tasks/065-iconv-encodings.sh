# Encodings: convert Latin-1 to UTF-8 and back, detect invalid UTF-8, count bytes each way.
printf 'caf\xe9 na\xefve\n' > latin1.txt
iconv -f ISO-8859-1 -t UTF-8 latin1.txt > utf8.txt
cat utf8.txt
wc -c < latin1.txt; wc -c < utf8.txt
iconv -f UTF-8 -t ISO-8859-1 utf8.txt | cmp - latin1.txt && echo "round trip"
iconv -f UTF-8 -t UTF-8 latin1.txt >/dev/null 2>&1; echo "invalid utf-8: $?"
printf 'Grüße\n' | iconv -f UTF-8 -t UTF-16LE | od -An -tx1
