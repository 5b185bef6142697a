module example.com/cpubound

go 1.22
