// Package format normalises a text read from a stream into another, as
// a formatting command does: it reads all of its input before it writes,
// so one buffer may be both (it is formatted in place).
package format

import (
	"bufio"
	"bytes"
	"io"
	"strings"

	"example.com/streams/norm"
)

// Format writes the lines of in, normalised, to out, and returns how many
// it wrote.
func Format(in io.Reader, out io.Writer) (int, error) {
	src, err := io.ReadAll(in)
	if err != nil {
		return 0, err
	}
	var b bytes.Buffer
	n := 0
	sc := bufio.NewScanner(strings.NewReader(string(src)))
	for sc.Scan() {
		if line, ok := norm.Line(sc.Text()); ok {
			b.WriteString(line + "\n")
			n++
		}
	}
	_, err = out.Write(b.Bytes())
	return n, err
}

// Lines counts the lines of r that are not comments.
func Lines(r io.Reader) int {
	n := 0
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		if _, ok := norm.Line(sc.Text()); ok {
			n++
		}
	}
	return n
}
