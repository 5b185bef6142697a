module example.com/nasty

go 1.22
