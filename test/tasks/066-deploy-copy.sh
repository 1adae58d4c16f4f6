# A deploy step: copy a build tree preserving structure, skip temp files, verify with diff and checksums.
mkdir -p build/assets build/tmp
echo '<html>' > build/index.html; echo 'body{}' > build/assets/app.css; echo junk > build/tmp/x.swp
mkdir release
(cd build && find . -type f ! -path './tmp/*' | sort) > manifest.txt
while read -r f; do mkdir -p "release/$(dirname "$f")"; cp -p "build/$f" "release/$f"; done < manifest.txt
cat manifest.txt
diff -r build release | sed 's/:.*//' 
(cd release && find . -type f -exec sha256sum {} + | sort -k2) > release.sums
(cd release && sha256sum --quiet -c ../release.sums) && echo "verified"
cp -r release release2 && rm release2/index.html && diff -rq release release2; echo "diff: $?"
