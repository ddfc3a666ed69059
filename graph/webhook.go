package graph

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/netip"
	"net/url"
	"slices"
	"strings"

	"github.com/bindery/bindery/ent"
	"github.com/bindery/bindery/ent/predicate"
	"github.com/bindery/bindery/ent/webhookdelivery"
	"github.com/bindery/bindery/ent/webhookendpoint"
	"github.com/bindery/bindery/graph/model"
	"github.com/bindery/bindery/internal/apperr"
	"github.com/bindery/bindery/internal/auth"
	"github.com/bindery/bindery/internal/authz"
	"github.com/bindery/bindery/internal/enum"
	"github.com/bindery/bindery/internal/events"
	"github.com/bindery/bindery/internal/id"
	"github.com/bindery/bindery/internal/page"
	"github.com/bindery/bindery/internal/webhook"
)

// Webhooks: an organization's admins register endpoints; a mutation that
// emits a webhook event (events.Event.For) writes one delivery per active
// endpoint that wants it, in the mutation's transaction (the outbox); the
// worker of package internal/webhook/deliver sends them.

// WebhookPresenter renders the object of a webhook event as /v1 presents it
// to an admin, inside the transaction of the change. The server injects
// it: package rest owns the /v1 shapes and imports this package.
type WebhookPresenter func(ctx context.Context, org string, t enum.WebhookEventType, subject string) (any, error)

// WithWebhookPresenter sets how the objects of webhook events are rendered;
// without one, an event's object is {"id": subject}.
func WithWebhookPresenter(p WebhookPresenter) Option {
	return func(r *Resolver) { r.presentWebhook = p }
}

// WithWebhookWorker makes the resolver wake the webhook worker after a
// transaction that wrote deliveries commits.
func WithWebhookWorker(wake func()) Option { return func(r *Resolver) { r.wakeWebhooks = wake } }

// webhooksByCreation orders lists of endpoints, oldest first.
var webhooksByCreation = page.Order[*ent.WebhookEndpoint, predicate.WebhookEndpoint, webhookendpoint.OrderOption]{
	Name: "webhooks", Column: webhookendpoint.FieldCreatedAt, KeyType: page.KeyTime,
	Key: func(x *ent.WebhookEndpoint) any { return x.CreatedAt }, ID: func(x *ent.WebhookEndpoint) string { return x.ID },
}

// deliveriesByCreation orders lists of deliveries, newest first.
var deliveriesByCreation = page.Order[*ent.WebhookDelivery, predicate.WebhookDelivery, webhookdelivery.OrderOption]{
	Name: "webhook-deliveries", Column: webhookdelivery.FieldCreatedAt, KeyType: page.KeyTime, Desc: true,
	Key: func(x *ent.WebhookDelivery) any { return x.CreatedAt }, ID: func(x *ent.WebhookDelivery) string { return x.ID },
}

// deliveryDecision decides about a delivery as about its endpoint.
func (r *Resolver) deliveryDecision(ctx context.Context, d *ent.WebhookDelivery) (authz.Decision, error) {
	_, dec, err := r.webhooks.get(ctx, d.EndpointID)
	if apperr.KindOf(err) == apperr.NotFound {
		return authz.Decision{}, nil
	}
	return dec, err
}

// organizationWebhooks lists an organization's endpoints, for its admins.
func (r *Resolver) organizationWebhooks(ctx context.Context, o *ent.Organization, a page.Args) (*model.WebhookEndpointConnection, error) {
	if _, _, err := r.orgs.authorize(ctx, o.ID, authz.Administer); err != nil {
		return nil, err
	}
	q := r.db(ctx).WebhookEndpoint.Query().Where(webhookendpoint.OrganizationID(o.ID))
	conn, err := page.Paginate(within(ctx), q, webhooksByCreation, a)
	if err != nil {
		return nil, err
	}
	l := r.webhooks.loader(ctx)
	for _, x := range conn.Nodes() {
		l.Prime(ctx, x.ID, x)
	}
	return model.NewWebhookEndpointConnection(conn), nil
}

// endpointDeliveries lists an endpoint's deliveries, newest first.
func (r *Resolver) endpointDeliveries(ctx context.Context, x *ent.WebhookEndpoint, a page.Args) (*model.WebhookDeliveryConnection, error) {
	if _, _, err := r.webhooks.authorize(ctx, x.ID, authz.View); err != nil {
		return nil, err
	}
	q := r.db(ctx).WebhookDelivery.Query().Where(webhookdelivery.EndpointID(x.ID))
	conn, err := page.Paginate(within(ctx), q, deliveriesByCreation, a)
	if err != nil {
		return nil, err
	}
	l := r.deliveries.loader(ctx)
	for _, d := range conn.Nodes() {
		l.Prime(ctx, d.ID, d)
	}
	return model.NewWebhookDeliveryConnection(conn), nil
}

// checkWebhookURL checks an endpoint's URL: https, with a host that is not
// a loopback, private or other special-purpose address. With
// BINDERY_IMPORT_ALLOW_PRIVATE (for local testing) http and such addresses
// are allowed. The worker's dialer checks the address again at connect
// time, after DNS, so a name that resolves inward is refused there.
func (r *Resolver) checkWebhookURL(raw string) (string, error) {
	s := strings.TrimSpace(raw)
	u, err := url.Parse(s)
	if err != nil || u.Host == "" || u.User != nil || len(s) > 2048 {
		return "", apperr.Invalid("url", "must be an absolute https URL of at most 2048 characters, without credentials")
	}
	private := r.cfg.ImportAllowPrivate
	if u.Scheme != "https" && !(private && u.Scheme == "http") {
		return "", apperr.Invalid("url", "must be an https URL")
	}
	if private {
		return s, nil
	}
	host := strings.ToLower(u.Hostname())
	if host == "localhost" || strings.HasSuffix(host, ".localhost") {
		return "", apperr.Invalid("url", "must not point at a loopback, private or reserved address")
	}
	if ip, err := netip.ParseAddr(host); err == nil && !publicAddr(ip) {
		return "", apperr.Invalid("url", "must not point at a loopback, private or reserved address")
	}
	return s, nil
}

// publicAddr says whether ip is an ordinary public unicast address.
func publicAddr(ip netip.Addr) bool {
	ip = ip.Unmap()
	return ip.IsGlobalUnicast() && !ip.IsPrivate() && !ip.IsLoopback() && !ip.IsLinkLocalUnicast() &&
		!net.IP(ip.AsSlice()).Equal(net.IPv4bcast)
}

// checkEventTypes checks an endpoint's event types: at least one, since an
// endpoint names what it receives (a new type of event then reaches no
// endpoint that did not ask for it). Repeats are dropped.
func checkEventTypes(ts []enum.WebhookEventType) ([]enum.WebhookEventType, error) {
	if len(ts) == 0 {
		return nil, apperr.Invalid("eventTypes", "must name at least one event type")
	}
	out := make([]enum.WebhookEventType, 0, len(ts))
	for _, t := range ts {
		if !t.Valid() {
			return nil, apperr.Invalid("eventTypes", "%q is not an event type", t)
		}
		if !slices.Contains(out, t) {
			out = append(out, t)
		}
	}
	return out, nil
}

// sealWebhookSecret seals an endpoint's signing secret.
func (r *Resolver) sealWebhookSecret(endpointID, secret string) (string, error) {
	if r.secretBox == nil {
		return "", apperr.Preconditionf("webhooks need a secret key (BINDERY_SECRET_KEY) to keep signing secrets")
	}
	return r.secretBox.Seal(secret, webhookSecretAD(endpointID))
}

// webhookSecretAD is the additional data an endpoint's secret is sealed
// with: a sealed secret copied to another endpoint does not open.
func webhookSecretAD(endpointID string) string { return endpointID + "/secret" }

func (r *Resolver) createWebhook(ctx context.Context, in model.CreateWebhookEndpointInput) (*ent.WebhookEndpoint, string, error) {
	u, err := r.checkWebhookURL(in.URL)
	if err != nil {
		return nil, "", err
	}
	types, err := checkEventTypes(in.EventTypes)
	if err != nil {
		return nil, "", err
	}
	var x *ent.WebhookEndpoint
	secret := webhook.NewSecret()
	err = r.tx(ctx, func(ctx context.Context) error {
		o, _, err := r.orgs.authorize(ctx, in.OrganizationID, authz.Administer)
		if err != nil {
			return err
		}
		eid := id.New(id.WebhookEndpoint)
		sealed, err := r.sealWebhookSecret(eid, secret)
		if err != nil {
			return err
		}
		c := r.db(ctx).WebhookEndpoint.Create().SetID(eid).SetOrganizationID(o.ID).SetURL(u).SetEventTypes(types).
			SetSecret(sealed).SetNillableActive(in.Active)
		if in.Description != nil {
			c.SetDescription(strings.TrimSpace(*in.Description))
		}
		x, err = c.Save(ctx)
		return err
	})
	if err != nil {
		return nil, "", err
	}
	hooked(ctx, x)
	return x, secret, nil
}

// hooked tells the request's viewer that the organization of an endpoint
// now has an active one, so that the changes that follow in the same
// request (a GraphQL document's next mutations) write their deliveries.
func hooked(ctx context.Context, x *ent.WebhookEndpoint) {
	if v := auth.ViewerFrom(ctx); v != nil && v.WebhookOrganizations != nil && x.Active {
		v.WebhookOrganizations[x.OrganizationID] = true
	}
}

func (r *Resolver) updateWebhook(ctx context.Context, in model.UpdateWebhookEndpointInput) (*ent.WebhookEndpoint, error) {
	var x *ent.WebhookEndpoint
	err := r.tx(ctx, func(ctx context.Context) error {
		var err error
		if x, _, err = r.webhooks.authorize(ctx, in.ID, authz.Update); err != nil {
			return err
		}
		up := x.Update()
		if in.URL != nil {
			u, err := r.checkWebhookURL(*in.URL)
			if err != nil {
				return err
			}
			up.SetURL(u)
		}
		if in.EventTypes != nil {
			types, err := checkEventTypes(in.EventTypes)
			if err != nil {
				return err
			}
			up.SetEventTypes(types)
		}
		if in.Description != nil {
			up.SetDescription(strings.TrimSpace(*in.Description))
		}
		if in.Active != nil {
			up.SetActive(*in.Active)
			if *in.Active {
				// An admin turning it back on has read why it was off.
				up.ClearDisabledReason().ClearDisabledAt().SetFailures(0)
			}
		}
		x, err = up.Save(ctx)
		return err
	})
	if err != nil {
		return nil, err
	}
	hooked(ctx, x)
	return x, nil
}

func (r *Resolver) deleteWebhook(ctx context.Context, in model.DeleteWebhookEndpointInput) error {
	return r.tx(ctx, func(ctx context.Context) error {
		x, _, err := r.webhooks.authorize(ctx, in.ID, authz.Delete)
		if err != nil {
			return err
		}
		return r.db(ctx).WebhookEndpoint.DeleteOne(x).Exec(ctx)
	})
}

func (r *Resolver) rotateWebhookSecret(ctx context.Context, in model.RotateWebhookEndpointSecretInput) (*ent.WebhookEndpoint, string, error) {
	var x *ent.WebhookEndpoint
	secret := webhook.NewSecret()
	err := r.tx(ctx, func(ctx context.Context) error {
		var err error
		if x, _, err = r.webhooks.authorize(ctx, in.ID, authz.Update); err != nil {
			return err
		}
		sealed, err := r.sealWebhookSecret(x.ID, secret)
		if err != nil {
			return err
		}
		x, err = x.Update().SetSecret(sealed).Save(ctx)
		return err
	})
	if err != nil {
		return nil, "", err
	}
	return x, secret, nil
}

// redeliver sends a past delivery again: a new delivery of the same event
// and body, due now, whatever the endpoint's state or event types.
func (r *Resolver) redeliver(ctx context.Context, in model.RedeliverWebhookDeliveryInput) (*ent.WebhookDelivery, error) {
	var out *ent.WebhookDelivery
	err := r.tx(ctx, func(ctx context.Context) error {
		d, _, err := r.deliveries.authorize(ctx, in.ID, authz.Update)
		if err != nil {
			return err
		}
		out, err = r.db(ctx).WebhookDelivery.Create().SetEndpointID(d.EndpointID).SetEventID(d.EventID).
			SetEventType(d.EventType).SetPayload(d.Payload).SetNextAttemptAt(r.clock()).SetRedeliveryOf(d.ID).Save(ctx)
		if err == nil {
			r.afterCommit(ctx, r.wakeWebhookWorker)
		}
		return err
	})
	return out, err
}

func (r *Resolver) wakeWebhookWorker() {
	if r.wakeWebhooks != nil {
		r.wakeWebhooks()
	}
}

// enqueueWebhooks writes the deliveries of a webhook event: one per active
// endpoint of its organization that wants its type, in the transaction of
// ctx. A transaction reads an organization's endpoints once, however many
// events it emits; then an event costs nothing more when no endpoint wants
// it, and the object's rendering (see WebhookPresenter) and one insert
// when some do.
func (r *Resolver) enqueueWebhooks(ctx context.Context, e events.Event) error {
	if v := auth.ViewerFrom(ctx); v != nil && v.WebhookOrganizations != nil && v.Facts != nil &&
		v.Facts.Memberships[e.Organization].Member && !v.WebhookOrganizations[e.Organization] {
		// The viewer's organization had no active endpoint when the
		// request began (read with the token), and none was turned on in
		// this request (hooked): nothing to write, and no statement to
		// know it. An endpoint another request turns on meanwhile is
		// missed as it would be by a read in this transaction that ran
		// before that request committed.
		return nil
	}
	db := r.db(ctx)
	p, _ := ctx.Value(pendingKey{}).(*pending)
	all, cached := []*ent.WebhookEndpoint(nil), false
	if p != nil {
		all, cached = p.endpoints[e.Organization]
	}
	if !cached {
		var err error
		all, err = db.WebhookEndpoint.Query().Where(webhookendpoint.OrganizationID(e.Organization), webhookendpoint.Active(true)).
			Select(webhookendpoint.FieldID, webhookendpoint.FieldEventTypes).All(internal(ctx, "the webhook outbox"))
		if err != nil {
			return fmt.Errorf("finding webhook endpoints: %w", err)
		}
		if p != nil {
			if p.endpoints == nil {
				p.endpoints = map[string][]*ent.WebhookEndpoint{}
			}
			p.endpoints[e.Organization] = all
		}
	}
	var eps []*ent.WebhookEndpoint
	for _, x := range all {
		if slices.Contains(x.EventTypes, e.Webhook) {
			eps = append(eps, x)
		}
	}
	if len(eps) == 0 {
		return nil
	}
	var err error
	var obj any = map[string]any{"id": e.Subject}
	if r.presentWebhook != nil {
		// Fresh loaders: those of the transaction may hold the object as
		// it was before the change.
		fresh := withLoaders(ctx, r.newLoaders(loadersFrom(ctx)))
		if obj, err = r.presentWebhook(fresh, e.Organization, e.Webhook, e.Subject); err != nil {
			return fmt.Errorf("rendering a webhook event's object: %w", err)
		}
	}
	body, err := json.Marshal(webhook.Envelope{ID: e.ID, Type: string(e.Webhook), CreatedAt: e.At,
		Organization: e.Organization, Data: map[string]any{"object": obj}})
	if err != nil {
		return fmt.Errorf("encoding a webhook event: %w", err)
	}
	now := r.clock()
	creates := make([]*ent.WebhookDeliveryCreate, len(eps))
	for i, x := range eps {
		creates[i] = db.WebhookDelivery.Create().SetEndpointID(x.ID).SetEventID(e.ID).SetEventType(e.Webhook).
			SetPayload(string(body)).SetNextAttemptAt(now)
	}
	if err := db.WebhookDelivery.CreateBulk(creates...).Exec(ctx); err != nil {
		return fmt.Errorf("writing webhook deliveries: %w", err)
	}
	r.afterCommit(ctx, r.wakeWebhookWorker)
	return nil
}

// WebhookLocation is the /v1 address of an endpoint.
func (r *Resolver) WebhookLocation(x *ent.WebhookEndpoint) string {
	return r.cfg.PublicURL + "/v1/orgs/" + x.OrganizationID + "/webhooks/" + x.ID
}

// WebhookDeliveryLocation is the /v1 address of a delivery of an endpoint.
func (r *Resolver) WebhookDeliveryLocation(x *ent.WebhookEndpoint, d *ent.WebhookDelivery) string {
	return r.WebhookLocation(x) + "/deliveries/" + d.ID
}
