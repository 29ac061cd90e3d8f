package news

import (
	"context"
	"strings"
	"testing"
)

func TestOpenFirestoreNeedsAProject(t *testing.T) {
	_, err := OpenFirestore(context.Background(), "")
	if err == nil || !strings.Contains(err.Error(), "--project") {
		t.Fatalf("OpenFirestore(\"\") = %v, want an error naming --project", err)
	}
}
