# JSON Lines: slurp, stream, group and convert to CSV with jq, checking null handling and sorting.
cat > log.jsonl <<'J'
{"ts":3,"level":"info","msg":"started","user":null}
{"ts":1,"level":"error","msg":"disk full","user":"ana"}
{"ts":2,"level":"info","msg":"login","user":"bo"}
{"ts":5,"level":"warn","msg":"slow","user":"ana"}
J
jq -s 'sort_by(.ts) | map(.msg)' log.jsonl
jq -r 'select(.user != null) | [.ts, .level, .user] | @csv' log.jsonl
jq -s 'group_by(.level) | map({key: .[0].level, value: length}) | from_entries' log.jsonl
jq -r '.user // "anonymous"' log.jsonl | sort | uniq -c
jq -n '[inputs | .ts] | max' log.jsonl
jq -c 'to_entries | map(select(.value != null)) | from_entries' log.jsonl | head -1
