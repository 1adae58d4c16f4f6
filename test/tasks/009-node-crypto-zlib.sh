# Node: hashing with crypto, gzip with zlib, and checking both against the shell tools.
printf 'the quick brown fox\n' > msg.txt
cat > hash.js <<'JS'
const crypto = require('crypto');
const zlib = require('zlib');
const fs = require('fs');
const data = fs.readFileSync('msg.txt');
console.log(crypto.createHash('sha256').update(data).digest('hex'));
console.log(crypto.createHash('md5').update(data).digest('base64'));
console.log(crypto.createHmac('sha1', 'key').update(data).digest('hex'));
fs.writeFileSync('msg.txt.gz', zlib.gzipSync(data));
console.log(zlib.gunzipSync(fs.readFileSync('msg.txt.gz')).toString() === data.toString());
JS
node hash.js
sha256sum < msg.txt | cut -d' ' -f1
gunzip -c msg.txt.gz
