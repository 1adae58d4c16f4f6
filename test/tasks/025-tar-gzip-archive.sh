# Archive a project with tar and gzip, extract elsewhere and verify contents.
mkdir -p proj/src proj/docs
printf 'int main(void) { return 0; }\n' > proj/src/main.c
printf '# Docs\n' > proj/docs/index.md
printf 'v1\n' > proj/VERSION
tar czf proj.tar.gz proj/VERSION proj/docs/index.md proj/src/main.c
tar tzf proj.tar.gz
mkdir out && tar xzf proj.tar.gz -C out
diff -r proj out/proj && echo same
gzip -c proj/VERSION > v.gz && gzip -t v.gz && echo gz-ok
gunzip -c v.gz
zcat proj.tar.gz | tar tf - | wc -l
tar xzf proj.tar.gz -C out proj/VERSION -O
