module example.com/testenv

go 1.22
