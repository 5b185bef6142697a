// Package car models a car whose fuel level changes when it is driven or
// refuelled.
package car

// Car is a car with a fuel tank.
type Car struct{ FuelAmount int }

// Drive consumes fuel.
func (c *Car) Drive() { c.FuelAmount -= 10 }

// Refuel fills the tank completely when it is below half, and tops it up
// otherwise.
func (c *Car) Refuel() {
	if c.FuelAmount < 50 {
		c.FuelAmount = 100
	} else {
		c.FuelAmount += 10
	}
}
