// Package person models a person who drives a car home.
package person

import "example.com/personcar/car"

// Person is a car owner who may be too lazy to refuel.
type Person struct {
	Car  *car.Car
	Lazy bool
}

// DriveToHome drives home, first adding energy when the tank is not full.
func (p *Person) DriveToHome() {
	if p.Car.FuelAmount < 100 {
		p.addEnergy()
	} else {
		p.Car.Drive()
	}
}

func (p *Person) addEnergy() {
	if p.Lazy {
		takeBus()
	} else {
		p.Car.Refuel()
	}
}

func takeBus() {}
