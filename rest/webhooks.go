package rest

import (
	"context"
	"encoding/json"

	"github.com/bindery/bindery/ent"
	"github.com/bindery/bindery/graph/model"
	"github.com/bindery/bindery/internal/apperr"
	"github.com/bindery/bindery/internal/enum"
	"github.com/bindery/bindery/internal/page"
	"github.com/bindery/bindery/internal/webhook"
)

// PresentWebhookObject renders the object of a webhook event as /v1
// presents it, through the same resolver calls and presenters as its GET
// route (see graph.WebhookPresenter). It runs inside the transaction of
// the change, as the viewer who made it, who sees the object. An object
// that is gone (a member removed) or that the viewer no longer sees is
// rendered as {"id": subject}; so is the revision of space.content.
func (a *API) PresentWebhookObject(ctx context.Context, org string, t enum.WebhookEventType, subject string) (any, error) {
	var out any
	var err error
	switch t {
	case enum.WebhookEventTypeMemberAdded, enum.WebhookEventTypeMemberRemoved:
		var o *ent.Organization
		if o, err = a.r.Query().Organization(ctx, org); err == nil {
			var m *ent.Member
			if m, err = a.r.Organization().Member(ctx, o, subject); err == nil {
				out, err = a.presentMember(ctx, m)
			}
		}
	case enum.WebhookEventTypeSpaceContent:
		return map[string]any{"object": "revision", "id": subject}, nil
	default:
		var n ent.Noder
		if n, err = a.r.Query().Node(ctx, subject); err == nil {
			switch x := n.(type) {
			case *ent.Space:
				out, err = a.presentSpace(ctx, x)
			case *ent.ChangeRequest:
				out, err = a.presentChangeRequest(ctx, x)
			case *ent.Comment:
				out, err = a.presentComment(ctx, x)
			case *ent.Site:
				out, err = a.presentSite(ctx, x)
			case nil:
				err = apperr.NotFoundf("not found")
			default:
				return map[string]any{"id": subject}, nil
			}
		}
	}
	switch apperr.KindOf(err) {
	case apperr.NotFound, apperr.PermissionDenied:
		return map[string]any{"id": subject}, nil
	}
	return out, err
}

// Webhook endpoints and their deliveries: Bindery's own /v1 operations
// (see Extensions), through the resolvers GraphQL uses.

// organizationWebhooks lists the webhook endpoints of the path's
// organization, oldest first.
func (p params) organizationWebhooks(args page.Args) (*model.WebhookEndpointConnection, error) {
	o, err := p.organization()
	if err != nil {
		return nil, err
	}
	return p.a.r.Organization().WebhookEndpoints(p.ctx(), o, args.First, args.After, nil, nil)
}

// webhook is the endpoint the path names, in the path's organization.
func (p params) webhook() (*ent.WebhookEndpoint, error) {
	o, err := p.organization()
	if err != nil {
		return nil, err
	}
	return p.a.r.Organization().WebhookEndpoint(p.ctx(), o, p.path("webhookId"))
}

// webhookDeliveries lists the deliveries of the path's endpoint, newest
// first.
func (p params) webhookDeliveries(args page.Args) (*model.WebhookDeliveryConnection, error) {
	x, err := p.webhook()
	if err != nil {
		return nil, err
	}
	return p.a.r.WebhookEndpoint().Deliveries(p.ctx(), x, args.First, args.After, nil, nil)
}

// webhookDelivery is the delivery the path names, of the path's endpoint:
// not found when it is another endpoint's.
func (p params) webhookDelivery() (*ent.WebhookDelivery, error) {
	_, d, err := p.endpointDelivery()
	return d, err
}

// endpointDelivery is the path's endpoint and its delivery the path names.
func (p params) endpointDelivery() (*ent.WebhookEndpoint, *ent.WebhookDelivery, error) {
	x, err := p.webhook()
	if err != nil {
		return nil, nil, err
	}
	n, err := p.a.r.Query().Node(p.ctx(), p.path("deliveryId"))
	if err != nil {
		return nil, nil, err
	}
	d, ok := n.(*ent.WebhookDelivery)
	if !ok || d.EndpointID != x.ID {
		return nil, nil, apperr.NotFoundf("No delivery %s of the webhook endpoint", p.path("deliveryId"))
	}
	return x, d, nil
}

func (p params) deleteWebhook() (model.DeleteWebhookEndpointInput, error) {
	x, err := p.webhook()
	if err != nil {
		return model.DeleteWebhookEndpointInput{}, err
	}
	return model.DeleteWebhookEndpointInput{ID: x.ID}, nil
}

func (p params) rotateWebhookSecret() (model.RotateWebhookEndpointSecretInput, error) {
	x, err := p.webhook()
	if err != nil {
		return model.RotateWebhookEndpointSecretInput{}, err
	}
	return model.RotateWebhookEndpointSecretInput{ID: x.ID}, nil
}

// redeliverInput is a redelivery's input, with the endpoint the path
// names, which presents the new delivery.
type redeliverInput struct {
	model.RedeliverWebhookDeliveryInput
	endpoint *ent.WebhookEndpoint
}

func (p params) redeliverWebhook() (redeliverInput, error) {
	x, d, err := p.endpointDelivery()
	if err != nil {
		return redeliverInput{}, err
	}
	return redeliverInput{RedeliverWebhookDeliveryInput: model.RedeliverWebhookDeliveryInput{ID: d.ID}, endpoint: x}, nil
}

// redelivered is a redelivery's payload with the endpoint of the path.
type redelivered struct {
	delivery *ent.WebhookDelivery
	endpoint *ent.WebhookEndpoint
}

// redeliver calls redeliverWebhookDelivery and keeps the path's endpoint,
// so that presenting the new delivery need not load it again after the
// commit.
func redeliver(m mutation, ctx context.Context, in redeliverInput) (*redelivered, error) {
	out, err := m.RedeliverWebhookDelivery(ctx, in.RedeliverWebhookDeliveryInput)
	if err != nil {
		return nil, err
	}
	return &redelivered{delivery: out.WebhookDelivery, endpoint: in.endpoint}, nil
}

func (a *API) presentRedelivered(_ context.Context, r *redelivered) (webhookDeliveryJSON, error) {
	return a.presentDeliveryOf(r.endpoint, r.delivery), nil
}

type createWebhookBody struct {
	URL         string                  `json:"url" rest:"required"`
	EventTypes  []enum.WebhookEventType `json:"eventTypes" rest:"required"`
	Active      *bool                   `json:"active" rest:"nonnull"`
	Description *string                 `json:"description" rest:"nonnull"`
	Integration *string                 `json:"integration" rest:"nonnull"`
}

func (b *createWebhookBody) input(p params) (model.CreateWebhookEndpointInput, error) {
	o, err := p.organization()
	if err != nil {
		return model.CreateWebhookEndpointInput{}, err
	}
	return model.CreateWebhookEndpointInput{OrganizationID: o.ID, URL: b.URL, EventTypes: b.EventTypes,
		Active: b.Active, Description: b.Description, Integration: b.Integration}, nil
}

type updateWebhookBody struct {
	URL         *string                  `json:"url" rest:"nonnull"`
	EventTypes  *[]enum.WebhookEventType `json:"eventTypes" rest:"nonnull"`
	Active      *bool                    `json:"active" rest:"nonnull"`
	Description *string                  `json:"description" rest:"nonnull"`
}

func (b *updateWebhookBody) input(p params) (model.UpdateWebhookEndpointInput, error) {
	x, err := p.webhook()
	if err != nil {
		return model.UpdateWebhookEndpointInput{}, err
	}
	in := model.UpdateWebhookEndpointInput{ID: x.ID, URL: b.URL, Active: b.Active, Description: b.Description}
	if b.EventTypes != nil {
		// Present, so never nil: [] is refused as no event type at all.
		in.EventTypes = append([]enum.WebhookEventType{}, *b.EventTypes...)
	}
	return in, nil
}

// webhookURLs are the addresses of a webhook endpoint or delivery.
type webhookURLs struct {
	Location string `json:"location"`
}

// webhookJSON is a webhook endpoint in /v1.
type webhookJSON struct {
	Object         string                  `json:"object"`
	ID             string                  `json:"id"`
	URL            string                  `json:"url"`
	EventTypes     []enum.WebhookEventType `json:"eventTypes"`
	Active         bool                    `json:"active"`
	Description    string                  `json:"description"`
	Integration    *string                 `json:"integration,omitempty"`
	DisabledReason *string                 `json:"disabledReason,omitempty"`
	DisabledAt     *string                 `json:"disabledAt,omitempty"`
	CreatedAt      string                  `json:"createdAt"`
	UpdatedAt      string                  `json:"updatedAt"`
	URLs           webhookURLs             `json:"urls"`
}

func (j webhookJSON) location() string { return j.URLs.Location }

func (a *API) presentWebhook(ctx context.Context, x *ent.WebhookEndpoint) (webhookJSON, error) {
	i, err := a.r.WebhookEndpoint().Integration(ctx, x)
	if err != nil {
		return webhookJSON{}, err
	}
	j := webhookJSON{Object: "webhook-endpoint", ID: x.ID, URL: x.URL, EventTypes: x.EventTypes, Active: x.Active,
		Description: x.Description, DisabledReason: x.DisabledReason, CreatedAt: model.FormatTime(x.CreatedAt),
		UpdatedAt: model.FormatTime(x.UpdatedAt),
		URLs:      webhookURLs{Location: a.r.WebhookLocation(x)}}
	if j.EventTypes == nil {
		j.EventTypes = []enum.WebhookEventType{}
	}
	if x.DisabledAt != nil {
		s := model.FormatTime(*x.DisabledAt)
		j.DisabledAt = &s
	}
	if i != nil {
		j.Integration = &i.Name
	}
	return j, nil
}

// webhookSecretJSON is an endpoint with its signing secret, which a
// create and a rotation show once.
type webhookSecretJSON struct {
	webhookJSON
	Secret string `json:"secret"`
}

func (a *API) presentCreatedWebhook(ctx context.Context, p *model.CreateWebhookEndpointPayload) (webhookSecretJSON, error) {
	j, err := a.presentWebhook(ctx, p.WebhookEndpoint)
	return webhookSecretJSON{webhookJSON: j, Secret: p.Secret}, err
}

func (a *API) presentRotatedWebhook(ctx context.Context, p *model.RotateWebhookEndpointSecretPayload) (webhookSecretJSON, error) {
	j, err := a.presentWebhook(ctx, p.WebhookEndpoint)
	return webhookSecretJSON{webhookJSON: j, Secret: p.Secret}, err
}

// webhookDeliveryJSON is a webhook delivery in /v1, with the log of its
// attempts.
type webhookDeliveryJSON struct {
	Object        string                    `json:"object"`
	ID            string                    `json:"id"`
	Endpoint      string                    `json:"endpoint"`
	EventID       string                    `json:"eventId"`
	EventType     enum.WebhookEventType     `json:"eventType"`
	Payload       json.RawMessage           `json:"payload"`
	State         enum.WebhookDeliveryState `json:"state"`
	NextAttemptAt *string                   `json:"nextAttemptAt,omitempty"`
	RedeliveryOf  *string                   `json:"redeliveryOf,omitempty"`
	Attempts      []webhookAttemptJSON      `json:"attempts"`
	CreatedAt     string                    `json:"createdAt"`
	UpdatedAt     string                    `json:"updatedAt"`
	URLs          webhookURLs               `json:"urls"`
}

// webhookAttemptJSON is one attempt at sending a delivery.
type webhookAttemptJSON struct {
	Number         int              `json:"number"`
	At             string           `json:"at"`
	RequestHeaders []webhook.Header `json:"requestHeaders"`
	ResponseStatus *int             `json:"responseStatus,omitempty"`
	ResponseBody   *string          `json:"responseBody,omitempty"`
	LatencyMs      int              `json:"latencyMs"`
	Error          *string          `json:"error,omitempty"`
}

func (a *API) presentWebhookDelivery(ctx context.Context, d *ent.WebhookDelivery) (webhookDeliveryJSON, error) {
	x, err := a.r.WebhookDelivery().Endpoint(ctx, d)
	if err != nil {
		return webhookDeliveryJSON{}, err
	}
	return a.presentDeliveryOf(x, d), nil
}

// presentDeliveryOf presents a delivery of the endpoint x.
func (a *API) presentDeliveryOf(x *ent.WebhookEndpoint, d *ent.WebhookDelivery) webhookDeliveryJSON {
	j := webhookDeliveryJSON{Object: "webhook-delivery", ID: d.ID, Endpoint: d.EndpointID, EventID: d.EventID,
		EventType: d.EventType, State: d.State, RedeliveryOf: d.RedeliveryOf, Attempts: make([]webhookAttemptJSON, len(d.Attempts)),
		CreatedAt: model.FormatTime(d.CreatedAt), UpdatedAt: model.FormatTime(d.UpdatedAt),
		URLs: webhookURLs{Location: a.r.WebhookDeliveryLocation(x, d)}}
	if json.Valid([]byte(d.Payload)) {
		j.Payload = json.RawMessage(d.Payload)
	} else {
		j.Payload, _ = json.Marshal(d.Payload)
	}
	if d.NextAttemptAt != nil {
		s := model.FormatTime(*d.NextAttemptAt)
		j.NextAttemptAt = &s
	}
	for i, at := range d.Attempts {
		hs := at.RequestHeaders
		if hs == nil {
			hs = []webhook.Header{}
		}
		j.Attempts[i] = webhookAttemptJSON{Number: at.Number, At: model.FormatTime(at.At), RequestHeaders: hs,
			ResponseStatus: at.ResponseStatus, ResponseBody: at.ResponseBody, LatencyMs: at.LatencyMs, Error: at.Error}
	}
	return j
}

func (j webhookDeliveryJSON) location() string { return j.URLs.Location }
