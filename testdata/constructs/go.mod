module example.com/constructs

go 1.22
