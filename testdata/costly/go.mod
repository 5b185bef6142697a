module example.com/costly

go 1.22
