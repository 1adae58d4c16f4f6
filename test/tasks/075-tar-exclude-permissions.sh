# tar for a release: exclude patterns, keep modes, list sizes, compare two archives' contents.
mkdir -p pkg/bin pkg/.git
printf '#!/bin/sh\necho tool\n' > pkg/bin/tool && chmod 755 pkg/bin/tool
echo secret > pkg/.git/config; echo readme > pkg/README
tar cf pkg.tar --exclude=.git pkg/README pkg/bin/tool pkg/bin pkg/.git 2>/dev/null
tar tf pkg.tar | sort
mkdir out && tar xf pkg.tar -C out && stat -c '%a %n' out/pkg/bin/tool
out/pkg/bin/tool
tar cf pkg2.tar -C out pkg
diff <(tar tf pkg.tar | sed "s|/$||" | sort -u) <(tar tf pkg2.tar | sed 's|/$||' | sort -u) && echo "same members"
