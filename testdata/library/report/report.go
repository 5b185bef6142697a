// Package report writes the lines of the desk's daily report.
package report

import (
	"fmt"

	"example.com/library/loans"
	"example.com/library/text"
)

// Line reports a return: the member's initials and the fee, or that the
// return failed.
func Line(d *loans.Desk, member string, days int) string {
	who := text.Initials(member, 3)
	fee, err := d.Return(member, days)
	if err != nil {
		return who + ": " + err.Error()
	}
	if fee == 0 {
		return who + ": returned"
	}
	return fmt.Sprintf("%s: returned, fee %d", who, fee)
}
