# Merge a default and an override JSON config with jq, validate required keys, emit env lines.
cat > defaults.json <<'J'
{"server":{"port":8080,"host":"0.0.0.0"},"features":{"beta":false,"log":"info"},"name":"svc"}
J
cat > override.json <<'J'
{"server":{"port":9000},"features":{"beta":true},"extra":[1,2]}
J
jq -s '.[0] * .[1]' defaults.json override.json > merged.json
jq -S -c . merged.json
for k in server.port server.host name missing.key; do
  if jq -e "getpath(\"$k\" | split(\".\")) != null" merged.json >/dev/null; then echo "$k ok"; else echo "$k MISSING"; fi
done
jq -r 'paths(scalars) as $p | "\($p | map(tostring) | join("_") | ascii_upcase)=\(getpath($p))"' merged.json
