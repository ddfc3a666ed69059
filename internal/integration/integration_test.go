package integration_test

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bindery/bindery/internal/apperr"
	"github.com/bindery/bindery/internal/integration"
)

func TestConfiguration(t *testing.T) {
	cfgs, err := integration.CheckConfigurations(json.RawMessage(`{"account": {"properties": {
	  "channel": {"type": "string", "enum": ["#a", "#b"]}, "n": {"type": "number"}, "go": {"type": "button", "callback_url": "/x", "button_text": "Go"}},
	  "required": ["channel"]}, "space": {"componentId": "cfg"}}`))
	require.NoError(t, err)
	for raw, complete := range map[string]bool{`{}`: false, `{"n": 2}`: false, `{"channel": "#a"}`: true, `null`: false} {
		_, got, err := integration.CheckConfiguration(cfgs, integration.TargetAccount, json.RawMessage(raw))
		require.NoError(t, err, raw)
		assert.Equal(t, complete, got, raw)
	}
	for _, raw := range []string{`{"channel": "#c"}`, `{"n": "two"}`, `{"other": 1}`, `[]`} {
		_, _, err := integration.CheckConfiguration(cfgs, integration.TargetAccount, json.RawMessage(raw))
		assert.Equal(t, apperr.InvalidArgument, apperr.KindOf(err), raw)
	}
	_, complete, err := integration.CheckConfiguration(cfgs, integration.TargetSpace, json.RawMessage(`{"any": true}`))
	require.NoError(t, err, "a ContentKit component takes any object")
	assert.True(t, complete)
	_, err = integration.CheckConfigurations(json.RawMessage(`{"account": {"properties": {"d": {"type": "date"}}}}`))
	assert.Error(t, err)
	_, err = integration.CheckConfigurations(json.RawMessage(`{"org": {"properties": {}}}`))
	assert.Error(t, err, "no such target")
}

func TestBlocks(t *testing.T) {
	blocks, domains, err := integration.CheckBlocks(json.RawMessage(`[{"id": "a", "title": "Ab",
	  "urlUnfurl": ["https://www.Figma.com/file/*", "https://figma.com/**", "not a url"]}]`))
	require.NoError(t, err)
	assert.Len(t, blocks, 1)
	assert.Equal(t, []string{"figma.com", "www.figma.com"}, domains)
	blocks, domains, err = integration.CheckBlocks(nil)
	require.NoError(t, err)
	assert.Nil(t, blocks)
	assert.Empty(t, domains)
	_, _, err = integration.CheckBlocks(json.RawMessage(`[{"id": "a"}]`))
	assert.Equal(t, apperr.InvalidArgument, apperr.KindOf(err))
}
