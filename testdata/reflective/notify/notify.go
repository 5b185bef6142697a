// Package notify sends messages through callbacks given as functional
// options, the style of many Go APIs.
package notify

import (
	"errors"

	"example.com/reflective/hooks"
)

// ErrRetry asks the notifier to try again later.
var ErrRetry = errors.New("notify: retry later")

// ErrEmpty is returned for an empty message.
var ErrEmpty = errors.New("notify: empty message")

// Options are the callbacks of a notifier.
type Options struct {
	// Filter keeps the messages of the levels it accepts.
	Filter func(level int) bool
	// Format rewrites a message before it is sent.
	Format func(msg string) string
	// OnError handles a failure; it returns false to decline it.
	OnError func(err error) bool
}

// Option configures a notifier.
type Option func(*Options)

// WithFilter keeps the messages of the levels keep accepts.
func WithFilter(keep func(level int) bool) Option {
	return func(o *Options) { o.Filter = keep }
}

// WithFormat rewrites messages with format.
func WithFormat(format func(msg string) string) Option {
	return func(o *Options) { o.Format = format }
}

// WithErrorHandler handles failures with handle.
func WithErrorHandler(handle func(err error) bool) Option {
	return func(o *Options) { o.OnError = handle }
}

// Notifier sends messages.
type Notifier struct {
	opts    Options
	sent    []string
	retries int
}

// New returns a notifier configured by opts.
func New(opts ...Option) *Notifier {
	n := &Notifier{}
	for _, o := range opts {
		if o != nil {
			o(&n.opts)
		}
	}
	return n
}

// Send formats msg and records it, unless it is empty or filtered out.
func (n *Notifier) Send(level int, msg string) error {
	if msg == "" {
		return ErrEmpty
	}
	out, err := hooks.Format(n.opts.Filter, n.opts.Format, level, msg)
	if err != nil {
		return err
	}
	n.sent = append(n.sent, out)
	return nil
}

// Fail reports a failure: a retry is counted, anything else goes to the
// error handler. It says whether the failure was dealt with.
func (n *Notifier) Fail(err error) bool {
	if errors.Is(err, ErrRetry) {
		n.retries++
		return hooks.Report(n.opts.OnError, err)
	}
	return hooks.Report(n.opts.OnError, err)
}

// Sent returns the messages sent so far.
func (n *Notifier) Sent() []string { return n.sent }
