//go:build !linux

package desktop

import "errors"

// InhibitScreenSaver is only implemented on Linux; elsewhere it fails, and
// the operator turns the screen saver off in the system settings.
func InhibitScreenSaver(app, reason string) (release func(), err error) {
	return nil, errors.New("kiosk: inhibiting the screen saver is only supported on Linux")
}
