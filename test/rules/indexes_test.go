package rules

import (
	"encoding/json"
	"os"
	"testing"
)

// TestDeployFiles checks the files `firebase deploy --only firestore`
// reads: firebase.json names the rules and the index file, and the index
// file declares no composite index and no field override. The program's
// queries are whole collections, in document-id order at most (news.List,
// docstore.List, the listeners), which Firestore serves without any index
// of its own (docstore.Page reads in document-id order too); a query that
// needs a composite index must add it here.
func TestDeployFiles(t *testing.T) {
	var firebase struct {
		Firestore struct {
			Rules   string `json:"rules"`
			Indexes string `json:"indexes"`
		} `json:"firestore"`
	}
	readJSON(t, "../../firebase.json", &firebase)
	if firebase.Firestore.Rules != "firestore.rules" || firebase.Firestore.Indexes != "firestore.indexes.json" {
		t.Errorf("firebase.json: firestore = %+v, want rules firestore.rules and indexes firestore.indexes.json", firebase.Firestore)
	}
	var indexes struct {
		Indexes        []json.RawMessage `json:"indexes"`
		FieldOverrides []json.RawMessage `json:"fieldOverrides"`
	}
	readJSON(t, "../../firestore.indexes.json", &indexes)
	if indexes.Indexes == nil || len(indexes.Indexes) != 0 || indexes.FieldOverrides == nil || len(indexes.FieldOverrides) != 0 {
		t.Errorf("firestore.indexes.json: %d indexes, %d field overrides (nil: %v, %v); want both present and empty",
			len(indexes.Indexes), len(indexes.FieldOverrides), indexes.Indexes == nil, indexes.FieldOverrides == nil)
	}
}

// readJSON decodes the JSON file name into v.
func readJSON(t *testing.T, name string, v any) {
	t.Helper()
	data, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, v); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
}
