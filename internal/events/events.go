// Package events is what Bindery tells subscribers: an event names what
// happened and to what, by ID, on a topic; a bus carries it to the
// subscribers of the topic on every server.
//
// Events carry IDs only. A subscriber loads the object and decides, for its
// own viewer, whether to show it, so an event never shows anything its
// subscriber may not see, and it fits in any bus's message.
//
// The package knows nothing about GraphQL or the database.
package events

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"time"

	"github.com/bindery/bindery/internal/enum"
)

// Kind is what happened: the GraphQL EventType.
type Kind = enum.EventType

// Kinds of events.
const (
	CommentPosted    = enum.EventTypeCommentPosted
	CommentEdited    = enum.EventTypeCommentEdited
	CommentResolved  = enum.EventTypeCommentResolved
	CommentReopened  = enum.EventTypeCommentReopened
	CommentDeleted   = enum.EventTypeCommentDeleted
	CommentReactions = enum.EventTypeCommentReactions
	ReplyPosted      = enum.EventTypeReplyPosted
	ReplyEdited      = enum.EventTypeReplyEdited
	ReplyDeleted     = enum.EventTypeReplyDeleted
	ReplyReactions   = enum.EventTypeReplyReactions

	ChangeRequestCreated = enum.EventTypeChangeRequestCreated
	ChangeRequestUpdated = enum.EventTypeChangeRequestUpdated
	ChangeRequestContent = enum.EventTypeChangeRequestContent
	ChangeRequestSynced  = enum.EventTypeChangeRequestSynced
	ChangeRequestMerged  = enum.EventTypeChangeRequestMerged

	SpaceContent = enum.EventTypeSpaceContent
)

// Event is something that happened.
type Event struct {
	// ID is unique to the event.
	ID    string `json:"id"`
	Topic string `json:"topic"`
	// Kind is empty on a topic whose events say only that something
	// happened (graph's changes topic).
	Kind Kind `json:"kind,omitempty"`
	// Subject is the ID of what the event is about: a comment (of a reply
	// too), a change request, or the space's new revision.
	Subject string `json:"subject"`
	// Reply is the reply's ID, for reply events.
	Reply string    `json:"reply,omitempty"`
	At    time.Time `json:"at"`
	// Organization and Webhook make the event a webhook event too: the
	// endpoints of the organization that want Webhook get a delivery.
	// Neither travels on the bus, and an event without a Topic goes to
	// webhooks only.
	Organization string                `json:"-"`
	Webhook      enum.WebhookEventType `json:"-"`
	// Within is the space or site the webhook event happened in (the
	// space of a change request or comment, the space or site itself),
	// empty for an event of the organization (a member's): an
	// integration's installation receives it when it covers that space or
	// site.
	Within string `json:"-"`
}

// For returns e as a webhook event of type w in organization org too,
// within a space or site (or "", see Event.Within).
func (e Event) For(org, within string, w enum.WebhookEventType) Event {
	e.Organization, e.Within, e.Webhook = org, within, w
	return e
}

// Webhook returns an event for webhooks only, of type w about subject in
// organization org, within a space or site (or ""), now.
func Webhook(org, within string, w enum.WebhookEventType, subject string) Event {
	return New("", "", subject).For(org, within, w)
}

// New returns an event of kind about subject on topic, now.
func New(topic string, kind Kind, subject string) Event {
	var b [12]byte
	_, _ = rand.Read(b[:])
	return Event{ID: "evt_" + hex.EncodeToString(b[:]), Topic: topic, Kind: kind, Subject: subject,
		At: time.Now().UTC().Truncate(time.Millisecond)}
}

// Topics. Subscribers of a topic receive its events in the order a server
// published them.

// CommentsTopic is the topic of the comments of a space (changeRequestID
// "") or of one of its change requests.
func CommentsTopic(spaceID, changeRequestID string) string {
	return "comments:" + spaceID + "/" + changeRequestID
}

// ChangeRequestsTopic is the topic of a space's change requests.
func ChangeRequestsTopic(spaceID string) string { return "change-requests:" + spaceID }

// SpaceContentTopic is the topic of a space's main content.
func SpaceContentTopic(spaceID string) string { return "space-content:" + spaceID }

// Bus carries events to subscribers.
type Bus interface {
	// Publish sends events to the subscribers of their topics, on every
	// server that shares the bus.
	Publish(ctx context.Context, evs ...Event) error
	// Subscribe returns the events of topic from now on. The channel is
	// closed when ctx ends, when the bus closes, or when the subscriber
	// falls too far behind: a closed channel means events may be missing.
	Subscribe(ctx context.Context, topic string) (<-chan Event, error)
}
