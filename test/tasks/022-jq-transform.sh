# JSON with jq: filter, group, reshape, and update a config file in place.
cat > events.json <<'J'
{"events":[
 {"type":"click","user":"u1","ms":120},{"type":"view","user":"u2","ms":40},
 {"type":"click","user":"u2","ms":300},{"type":"view","user":"u1","ms":15},
 {"type":"click","user":"u1","ms":80}]}
J
jq -c '.events | group_by(.type) | map({type: .[0].type, n: length, avg: (map(.ms) | add / length)})' events.json
jq -r '.events[] | select(.ms > 100) | [.user, .ms] | @tsv' events.json
jq '[.events[].user] | unique' events.json
echo '{"name":"svc","port":8080,"tags":["a"]}' > config.json
jq '.port = 9090 | .tags += ["b"] | .debug = true' config.json > config.tmp && mv config.tmp config.json
jq -S . config.json
jq -e '.missing' config.json >/dev/null; echo "jq -e: $?"
