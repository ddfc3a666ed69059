package graph

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"net"
	"net/netip"
	"net/url"
	"slices"
	"strings"

	"github.com/bindery/bindery/ent"
	"github.com/bindery/bindery/ent/integration"
	"github.com/bindery/bindery/ent/integrationinstallation"
	"github.com/bindery/bindery/ent/predicate"
	"github.com/bindery/bindery/ent/site"
	"github.com/bindery/bindery/ent/space"
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
	if err != nil || u.Host == "" || u.User != nil {
		return "", apperr.Invalid("url", "must be an absolute https URL, without credentials")
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
	secret := webhook.NewSecret()
	x, err := mutate(ctx, r, r.orgs, in.OrganizationID, authz.Administer,
		func(ctx context.Context, o *ent.Organization, _ authz.Decision) (*ent.WebhookEndpoint, error) {
			eid := id.New(id.WebhookEndpoint)
			sealed, err := r.sealWebhookSecret(eid, secret)
			if err != nil {
				return nil, err
			}
			c := r.db(ctx).WebhookEndpoint.Create().SetID(eid).SetOrganizationID(o.ID).SetURL(u).SetEventTypes(types).
				SetSecret(sealed).SetNillableActive(in.Active)
			if in.Integration != nil {
				i, err := r.integrationByName(ctx, *in.Integration, authz.View)
				if apperr.KindOf(err) == apperr.NotFound || err == nil && i.OrganizationID != o.ID {
					return nil, apperr.Invalid("integration", "%q is not an integration this organization publishes", *in.Integration)
				}
				if err != nil {
					return nil, err
				}
				if err := checkIntegrationEvents(i, types); err != nil {
					return nil, err
				}
				c.SetIntegrationID(i.ID)
			}
			if in.Description != nil {
				c.SetDescription(strings.TrimSpace(*in.Description))
			}
			x, err := c.Save(ctx)
			if err != nil {
				return nil, err
			}
			r.webhooks.wrote(ctx, x)
			return x, nil
		})
	if err != nil {
		return nil, "", err
	}
	hooked(ctx, x)
	return x, secret, nil
}

// checkIntegrationEvents checks the event types of an integration's
// endpoint: each one integrations receive, with the scope it needs among
// the integration's (see webhook.IntegrationScope).
func checkIntegrationEvents(i *ent.Integration, types []enum.WebhookEventType) error {
	for _, t := range types {
		scope, ok := webhook.IntegrationScope(t)
		if !ok {
			return apperr.Invalid("eventTypes", "integrations do not receive %s events", t)
		}
		if !slices.Contains(i.Scopes, scope) {
			return apperr.Invalid("eventTypes", "%s events need the integration's scope %s", t, scope)
		}
	}
	return nil
}

// endpointIntegration is the integration of an endpoint, or nil for an
// organization's endpoint or when the integration is no longer published.
func (r *Resolver) endpointIntegration(ctx context.Context, x *ent.WebhookEndpoint) (*ent.Integration, error) {
	if x.IntegrationID == nil {
		return nil, nil
	}
	i, _, err := r.integrations.get(ctx, *x.IntegrationID)
	if apperr.KindOf(err) == apperr.NotFound {
		return nil, nil
	}
	return i, err
}

// hooked tells the request's viewer that the organization of an endpoint
// now has an active one, so that the changes that follow in the same
// request (a GraphQL document's next mutations) write their deliveries.
// An integration's endpoint concerns the organizations where the
// integration is installed, which the viewer's facts do not list: the
// rest of the request looks for endpoints at every change.
func hooked(ctx context.Context, x *ent.WebhookEndpoint) {
	if !x.Active {
		return
	}
	if x.IntegrationID != nil {
		hookEverywhere(ctx)
		return
	}
	hookOrganization(ctx, x.OrganizationID)
}

// hookEverywhere tells the request's viewer that changes in any
// organization may now have endpoints to deliver to (see hooked).
func hookEverywhere(ctx context.Context) {
	if v := auth.ViewerFrom(ctx); v != nil {
		v.WebhookOrganizations = nil
	}
}

// hookOrganization tells the request's viewer that changes in org may now
// have endpoints to deliver to (see hooked): an endpoint turned on, or an
// integration installed or resumed there.
func hookOrganization(ctx context.Context, org string) {
	if v := auth.ViewerFrom(ctx); v != nil && v.WebhookOrganizations != nil {
		v.WebhookOrganizations[org] = true
	}
}

func (r *Resolver) updateWebhook(ctx context.Context, in model.UpdateWebhookEndpointInput) (*ent.WebhookEndpoint, error) {
	x, err := mutate(ctx, r, r.webhooks, in.ID, authz.Update, func(ctx context.Context, x *ent.WebhookEndpoint, _ authz.Decision) (*ent.WebhookEndpoint, error) {
		up := x.Update()
		if in.URL != nil {
			u, err := r.checkWebhookURL(*in.URL)
			if err != nil {
				return nil, err
			}
			up.SetURL(u)
		}
		if in.EventTypes != nil {
			types, err := checkEventTypes(in.EventTypes)
			if err != nil {
				return nil, err
			}
			if x.IntegrationID != nil {
				i, err := r.endpointIntegration(ctx, x)
				if err != nil {
					return nil, err
				}
				if i == nil {
					return nil, apperr.Invalid("eventTypes", "the endpoint's integration is no longer published")
				}
				if err := checkIntegrationEvents(i, types); err != nil {
					return nil, err
				}
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
		return up.Save(ctx)
	})
	if err != nil {
		return nil, err
	}
	hooked(ctx, x)
	return x, nil
}

func (r *Resolver) deleteWebhook(ctx context.Context, in model.DeleteWebhookEndpointInput) error {
	return act(ctx, r, r.webhooks, in.ID, authz.Delete, func(ctx context.Context, x *ent.WebhookEndpoint, _ authz.Decision) error {
		return r.db(ctx).WebhookEndpoint.DeleteOne(x).Exec(ctx)
	})
}

func (r *Resolver) rotateWebhookSecret(ctx context.Context, in model.RotateWebhookEndpointSecretInput) (*ent.WebhookEndpoint, string, error) {
	secret := webhook.NewSecret()
	x, err := mutate(ctx, r, r.webhooks, in.ID, authz.Update, func(ctx context.Context, x *ent.WebhookEndpoint, _ authz.Decision) (*ent.WebhookEndpoint, error) {
		sealed, err := r.sealWebhookSecret(x.ID, secret)
		if err != nil {
			return nil, err
		}
		return x.Update().SetSecret(sealed).Save(ctx)
	})
	if err != nil {
		return nil, "", err
	}
	return x, secret, nil
}

// redeliver sends a past delivery again: a new delivery of the same event
// and body, due now, whatever the endpoint's state or event types.
func (r *Resolver) redeliver(ctx context.Context, in model.RedeliverWebhookDeliveryInput) (*ent.WebhookDelivery, error) {
	return mutate(ctx, r, r.deliveries, in.ID, authz.Update, func(ctx context.Context, d *ent.WebhookDelivery, _ authz.Decision) (*ent.WebhookDelivery, error) {
		out, err := r.db(ctx).WebhookDelivery.Create().SetEndpointID(d.EndpointID).SetEventID(d.EventID).
			SetEventType(d.EventType).SetPayload(d.Payload).SetNextAttemptAt(r.clock()).SetRedeliveryOf(d.ID).Save(ctx)
		if err == nil {
			r.afterCommit(ctx, r.wakeWebhookWorker)
		}
		return out, err
	})
}

func (r *Resolver) wakeWebhookWorker() {
	if r.wakeWebhooks != nil {
		r.wakeWebhooks()
	}
}

// enqueueWebhooks writes the deliveries of a webhook event, in the
// transaction of ctx: one per active endpoint of its organization that
// wants its type, and one per active endpoint of an integration installed
// (and active) there whose scopes allow the type and whose installation
// covers the space or site the event happened in (events.Event.Within).
// A transaction reads an organization's endpoints once, however many
// events it emits; then an event costs nothing more when no endpoint wants
// it, the object's rendering (see WebhookPresenter) and one insert when
// some do, and one statement more to find the installations when an
// integration's endpoint does.
func (r *Resolver) enqueueWebhooks(ctx context.Context, e events.Event) error {
	if v := auth.ViewerFrom(ctx); v != nil && v.WebhookOrganizations != nil && v.Facts != nil &&
		v.Facts.Memberships[e.Organization].Member && !v.WebhookOrganizations[e.Organization] {
		// The viewer's organization had no active endpoint, nor an active
		// installation of an integration with one, when the request began
		// (read with the token), and none was turned on in this request
		// (hooked): nothing to write, and no statement to know it. An
		// endpoint another request turns on meanwhile is missed as it
		// would be by a read in this transaction that ran before that
		// request committed.
		return nil
	}
	all, err := r.organizationEndpoints(ctx, e.Organization)
	if err != nil {
		return err
	}
	var own []*ent.WebhookEndpoint
	byIntegration := map[string][]*ent.WebhookEndpoint{}
	scope, integrations := webhook.IntegrationScope(e.Webhook)
	for _, x := range all {
		switch {
		case !slices.Contains(x.EventTypes, e.Webhook):
		case x.IntegrationID == nil:
			own = append(own, x)
		case integrations && x.Edges.Integration != nil && slices.Contains(x.Edges.Integration.Scopes, scope):
			byIntegration[*x.IntegrationID] = append(byIntegration[*x.IntegrationID], x)
		}
	}
	installs, err := r.coveringInstallations(ctx, e, slices.Collect(maps.Keys(byIntegration)))
	if err != nil {
		return err
	}
	if len(own) == 0 && len(installs) == 0 {
		return nil
	}
	var obj any = map[string]any{"id": e.Subject}
	if r.presentWebhook != nil {
		if obj, err = r.presentWebhook(r.asOrganizationAdmin(ctx, e.Organization), e.Organization, e.Webhook, e.Subject); err != nil {
			return fmt.Errorf("rendering a webhook event's object: %w", err)
		}
	}
	envelope := webhook.Envelope{ID: e.ID, Type: string(e.Webhook), CreatedAt: e.At, Organization: e.Organization,
		Data: map[string]any{"object": obj}}
	db, now := r.db(ctx), r.clock()
	var creates []*ent.WebhookDeliveryCreate
	deliver := func(eps []*ent.WebhookEndpoint, env webhook.Envelope) error {
		body, err := json.Marshal(env)
		if err != nil {
			return fmt.Errorf("encoding a webhook event: %w", err)
		}
		for _, x := range eps {
			creates = append(creates, db.WebhookDelivery.Create().SetEndpointID(x.ID).SetEventID(e.ID).
				SetEventType(e.Webhook).SetPayload(string(body)).SetNextAttemptAt(now))
		}
		return nil
	}
	if len(own) > 0 {
		if err := deliver(own, envelope); err != nil {
			return err
		}
	}
	for _, x := range installs {
		eps := byIntegration[x.IntegrationID]
		env := envelope
		env.Integration, env.Installation = eps[0].Edges.Integration.Name, x.ID
		if err := deliver(eps, env); err != nil {
			return err
		}
	}
	if err := db.WebhookDelivery.CreateBulk(creates...).Exec(ctx); err != nil {
		return fmt.Errorf("writing webhook deliveries: %w", err)
	}
	r.afterCommit(ctx, r.wakeWebhookWorker)
	return nil
}

// organizationEndpoints returns the active endpoints that may receive the
// events of an organization: its own, and those of the published
// integrations with an active installation there, with the integration's
// name and scopes. A transaction reads them once per organization.
func (r *Resolver) organizationEndpoints(ctx context.Context, org string) ([]*ent.WebhookEndpoint, error) {
	p, _ := ctx.Value(pendingKey{}).(*pending)
	if p != nil {
		if all, ok := p.endpoints[org]; ok {
			return all, nil
		}
	}
	all, err := r.db(ctx).WebhookEndpoint.Query().Where(webhookendpoint.Active(true), webhookendpoint.Or(
		webhookendpoint.And(webhookendpoint.OrganizationID(org), webhookendpoint.IntegrationIDIsNil()),
		webhookendpoint.HasIntegrationWith(integration.UnpublishedAtIsNil(), integration.HasInstallationsWith(
			integrationinstallation.OrganizationID(org), integrationinstallation.StatusEQ(enum.InstallationStatusActive))),
	)).
		Select(webhookendpoint.FieldID, webhookendpoint.FieldEventTypes, webhookendpoint.FieldIntegrationID).
		WithIntegration(func(q *ent.IntegrationQuery) {
			q.Select(integration.FieldID, integration.FieldName, integration.FieldScopes)
		}).
		All(internal(ctx, "the webhook outbox"))
	if err != nil {
		return nil, fmt.Errorf("finding webhook endpoints: %w", err)
	}
	if p != nil {
		if p.endpoints == nil {
			p.endpoints = map[string][]*ent.WebhookEndpoint{}
		}
		p.endpoints[org] = all
	}
	return all, nil
}

// coveringInstallations returns the active installations, in the event's
// organization, of the given integrations that cover the space or site the
// event happened in: all of the organization's, or a selection that holds
// it.
func (r *Resolver) coveringInstallations(ctx context.Context, e events.Event, integrationIDs []string) ([]*ent.IntegrationInstallation, error) {
	if len(integrationIDs) == 0 {
		return nil, nil
	}
	slices.Sort(integrationIDs)
	covers := integrationinstallation.Or(
		integrationinstallation.SpaceSelectionEQ(enum.InstallationSelectionAll),
		integrationinstallation.HasSpacesWith(space.ID(e.Within)))
	if webhook.OfSite(e.Webhook) {
		covers = integrationinstallation.Or(
			integrationinstallation.SiteSelectionEQ(enum.InstallationSelectionAll),
			integrationinstallation.HasSitesWith(site.ID(e.Within)))
	}
	xs, err := r.db(ctx).IntegrationInstallation.Query().Where(integrationinstallation.OrganizationID(e.Organization),
		integrationinstallation.IntegrationIDIn(integrationIDs...),
		integrationinstallation.StatusEQ(enum.InstallationStatusActive), covers).
		Order(integrationinstallation.ByIntegrationID()).
		Select(integrationinstallation.FieldID, integrationinstallation.FieldIntegrationID).
		All(internal(ctx, "the installations a webhook event reaches"))
	if err != nil {
		return nil, fmt.Errorf("finding the installations of webhook endpoints: %w", err)
	}
	return xs, nil
}

// asOrganizationAdmin returns ctx as an admin of org sees it: the viewer's
// user, with the facts of an admin of org and of nothing else, and fresh
// loaders (those of the transaction may hold an object as it was before
// the change). A webhook event's object is presented in it, the same
// whoever made the change.
func (r *Resolver) asOrganizationAdmin(ctx context.Context, org string) context.Context {
	l := r.newLoaders(loadersFrom(ctx))
	v := auth.ViewerFrom(ctx)
	if v == nil || v.User == nil {
		return withLoaders(ctx, l)
	}
	facts := &authz.Facts{Memberships: map[string]authz.Membership{org: {Member: true, Role: enum.RoleAdmin}},
		Grants: map[string]enum.Role{}}
	l.facts = &viewerFacts{user: v.User, loaded: true, memberships: facts.Memberships, grants: facts.Grants}
	return withLoaders(auth.WithViewer(ctx, &auth.Viewer{User: v.User, Token: v.Token, Facts: facts}), l)
}

// WebhookLocation is the /v1 address of an endpoint.
func (r *Resolver) WebhookLocation(x *ent.WebhookEndpoint) string {
	return r.cfg.PublicURL + "/v1/orgs/" + x.OrganizationID + "/webhooks/" + x.ID
}

// WebhookDeliveryLocation is the /v1 address of a delivery of an endpoint.
func (r *Resolver) WebhookDeliveryLocation(x *ent.WebhookEndpoint, d *ent.WebhookDelivery) string {
	return r.WebhookLocation(x) + "/deliveries/" + d.ID
}
