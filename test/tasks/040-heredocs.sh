# Here-documents: quoted vs unquoted, tab stripping, here-strings, generating a script and running it.
name=world
cat <<EOT
hello $name $((1+2)) $(echo sub)
EOT
cat <<'EOT'
literal $name $(echo no)
EOT
cat <<-EOT
	tabs stripped for $name
		nested tab kept one level
	EOT
read -r a b <<< "first second third"
echo "$a|$b"
cat > gen.sh <<EOS
#!/bin/sh
echo generated for $name
echo "args: \$#"
EOS
chmod +x gen.sh && ./gen.sh x y
wc -l <<< "$(printf 'a\nb\nc')"
