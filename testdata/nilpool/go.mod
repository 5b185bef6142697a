module example.com/nilpool

go 1.22
