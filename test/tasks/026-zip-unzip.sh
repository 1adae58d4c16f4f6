# zip and unzip: build an archive, list names, update, extract one file to stdout.
mkdir -p site/css
echo '<h1>hi</h1>' > site/index.html
echo 'h1 { color: red }' > site/css/main.css
zip -q -r site.zip site/index.html site/css/main.css
unzip -Z1 site.zip
echo '<p>about</p>' > site/about.html
zip -q site.zip site/about.html
unzip -Z1 site.zip | sort
unzip -p site.zip site/css/main.css
mkdir x && cd x && unzip -q ../site.zip && find . -type f | sort
unzip -q ../site.zip nothing.txt 2>/dev/null; echo "missing member: $?"
