package frcevent

import (
	"strconv"

	"github.com/robohornets/robohornets/internal/frcevent/board"
	"github.com/robohornets/robohornets/internal/frcevent/frcapi"
)

// sourceNames are the sources as the page names them.
var sourceNames = map[frcapi.Source]string{frcapi.Nexus: "Nexus", frcapi.TBA: "TBA"}

// healthOf sums up the last results of a source's endpoints: the worst one
// counts; the optional endpoints do not.
func (h *Hub) healthOf(src frcapi.Source, on bool) board.Health {
	source := sourceNames[src]
	if !on {
		switch {
		case src != frcapi.Nexus || !h.webhookSeen:
			return board.Health{State: board.StateOff, Message: "No " + source + " key set"}
		case h.opts.Clock.Now().Sub(h.up.Nexus.LastGood) < webhookStaleAfter:
			return board.Health{State: board.StateOK, Message: "Live from the Nexus webhook"}
		}
		return board.Health{State: board.StateUnreachable, Message: "No news from the Nexus webhook for " + strconv.Itoa(int(webhookStaleAfter.Minutes())) + " min"}
	}
	worst, asked := board.StateOK, false
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
		return board.Health{State: board.StateUnreachable, Message: "Waiting for " + source}
	case worst == board.StateKeyRejected:
		return board.Health{State: worst, Message: source + " key rejected"}
	case worst == board.StateNotFound:
		key := h.up.EventKey
		if src == frcapi.Nexus {
			key = h.up.NexusEventKey
		}
		return board.Health{State: worst, Message: source + " does not know event " + key}
	case worst == board.StateUnreachable:
		return board.Health{State: worst, Message: source + " unreachable"}
	}
	return board.Health{State: board.StateOK, Message: "Live from " + source}
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
	// The season's results and awards: the page does without them.
	frcapi.TBATeamEventStatuses: true,
	frcapi.TBATeamAwards:        true,
}

// severity orders the states from good to worst.
func severity(state board.SourceState) int {
	switch state {
	case board.StateUnreachable:
		return 1
	case board.StateNotFound:
		return 2
	case board.StateKeyRejected:
		return 3
	}
	return 0
}
