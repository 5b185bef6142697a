module example.com/reflective

go 1.22
