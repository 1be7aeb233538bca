package handlers

import (
	"net/url"
	"strings"
	"testing"
	"time"

	"events/models"
)

// Every listing of the registry is known to models with its parameters,
// has a use case, and at most one listing sits at each address.
func TestListingRegistry(t *testing.T) {
	t.Parallel()
	paths, names := map[string]bool{}, map[string]bool{}
	for _, l := range listings {
		if l.Run == nil {
			t.Errorf("%s: no use case", l.Name)
		}
		if _, err := models.ParseListQuery(l.Name, url.Values{}, time.UTC); err != nil {
			t.Errorf("%s: models does not know it: %v", l.Name, err)
		}
		if paths[l.Path] {
			t.Errorf("%s: a second listing at /api/events%s", l.Name, l.Path)
		}
		paths[l.Path] = true
		if l.Tab != nil {
			if names[l.Tab.Name] {
				t.Errorf("%s: a second tab named %s", l.Name, l.Tab.Name)
			}
			names[l.Tab.Name] = true
		}
	}
	var tabList []string
	for _, tb := range tabs {
		tabList = append(tabList, tb.Name)
	}
	want := strings.Join(tabList[:len(tabList)-1], ", ") + " or " + tabList[len(tabList)-1]
	if got := tabNames(); got != want {
		t.Errorf("tabNames() = %q, want %q", got, want)
	}
}
