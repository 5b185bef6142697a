module example.com/faults

go 1.22
