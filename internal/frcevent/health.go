package frcevent

import (
	"strconv"

	"github.com/robohornets/robohornets/internal/frcevent/frcapi"
)

// sourceNames are the sources as the page names them.
var sourceNames = map[frcapi.Source]string{frcapi.Nexus: "Nexus", frcapi.TBA: "TBA"}

// healthOf sums up the last results of a source's endpoints: the worst one
// counts; the optional endpoints do not.
func (h *Hub) healthOf(src frcapi.Source, on bool) health {
	source := sourceNames[src]
	if !on {
		switch {
		case src != frcapi.Nexus || !h.webhookSeen:
			return health{StateOff, "No " + source + " key set"}
		case h.opts.Clock.Now().Sub(h.up.Nexus.LastGood) < webhookStaleAfter:
			return health{StateOK, "Live from the Nexus webhook"}
		}
		return health{StateUnreachable, "No news from the Nexus webhook for " + strconv.Itoa(int(webhookStaleAfter.Minutes())) + " min"}
	}
	worst, asked := StateOK, false
	for ep, err := range h.errs {
		if ep.Source != src || optional[ep] {
			continue
		}
		asked = true
		if severity(stateOf(err)) > severity(worst) {
			worst = stateOf(err)
		}
	}
	switch {
	case !asked:
		return health{StateUnreachable, "Waiting for " + source}
	case worst == StateKeyRejected:
		return health{worst, source + " key rejected"}
	case worst == StateNotFound:
		key := h.up.EventKey
		if src == frcapi.Nexus {
			key = h.up.NexusEventKey
		}
		return health{worst, source + " does not know event " + key}
	case worst == StateUnreachable:
		return health{worst, source + " unreachable"}
	}
	return health{StateOK, "Live from " + source}
}

// optional are the endpoints whose failures are logged but do not make
// their source look down: an event works without pit addresses, team
// names, and, before the playoffs, alliances; the core endpoints of the
// same source tell whether it is down.
var optional = map[frcapi.Endpoint]bool{
	frcapi.NexusPits:       true,
	frcapi.TBAEventTeams:   true,
	frcapi.TBAAlliances:    true,
	frcapi.TBAEventMatches: true,
}

// severity orders the states from good to worst.
func severity(state string) int {
	switch state {
	case StateUnreachable:
		return 1
	case StateNotFound:
		return 2
	case StateKeyRejected:
		return 3
	}
	return 0
}
