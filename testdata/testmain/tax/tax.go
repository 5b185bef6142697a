// Package tax knows the tax rates of regions.
package tax

// Rate is the tax rate of a region, in percent.
func Rate(region string) int {
	switch region {
	case "eu":
		return 20
	case "us":
		return 7
	}
	return 0
}
