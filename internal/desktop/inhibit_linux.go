package desktop

import (
	"fmt"

	"github.com/godbus/dbus/v5"
)

// InhibitScreenSaver asks the desktop's screen saver (the freedesktop
// org.freedesktop.ScreenSaver D-Bus service, offered by GNOME, KDE, Xfce and
// others) not to blank the screen, and returns the function that lifts the
// request. It fails where no session bus or no such service exists; callers
// log that and go on.
func InhibitScreenSaver(app, reason string) (release func(), err error) {
	conn, err := dbus.ConnectSessionBus()
	if err != nil {
		return nil, fmt.Errorf("kiosk: inhibit screen saver: %w", err)
	}
	obj := conn.Object("org.freedesktop.ScreenSaver", "/org/freedesktop/ScreenSaver")
	var cookie uint32
	if err := obj.Call("org.freedesktop.ScreenSaver.Inhibit", 0, app, reason).Store(&cookie); err != nil {
		_ = conn.Close() // the Inhibit error is the one to report
		return nil, fmt.Errorf("kiosk: inhibit screen saver: %w", err)
	}
	return func() {
		obj.Call("org.freedesktop.ScreenSaver.UnInhibit", 0, cookie)
		_ = conn.Close() // releasing: nothing to do if the session bus is gone
	}, nil
}
