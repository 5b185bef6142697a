module example.com/personcar

go 1.22
