module example.com/procstate

go 1.22
