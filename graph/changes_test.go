package graph_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bindery/bindery/graph"
	"github.com/bindery/bindery/internal/events"
	"github.com/bindery/bindery/server/servertest"
)

// TestGenerationCountsEachWriteOnce: a server counts its own write as it
// commits, and not again when the write's announcement comes back to it on
// the bus; another server's announcement counts.
func TestGenerationCountsEachWriteOnce(t *testing.T) {
	e := servertest.New(t)
	r := e.Server.Resolver()
	before, ok := r.Generation()
	require.True(t, ok)
	e.Client.Organization.UpdateOne(e.Org).SetTitle("Renamed").ExecX(t.Context())
	written, ok := r.Generation()
	require.True(t, ok)
	require.Equal(t, before.Writes()+1, written.Writes(), "the write counts as it commits")

	// The bus carries a server's events in order: once the other server's
	// announcement is counted, this one's came back before it.
	require.NoError(t, r.Bus().Publish(t.Context(), events.New(graph.ChangesTopic, "", "another server")))
	assert.Eventually(t, func() bool {
		g, _ := r.Generation()
		return g.Writes() > written.Writes()
	}, 5*time.Second, time.Millisecond)
	after, _ := r.Generation()
	assert.Equal(t, written.Writes()+1, after.Writes(), "the write came back and counted once; the other server's counted")
}
