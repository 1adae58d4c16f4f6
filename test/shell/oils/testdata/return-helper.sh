
echo 'return-helper.sh'
return 42
echo 'should not see'

