break
