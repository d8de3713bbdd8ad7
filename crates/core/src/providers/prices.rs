//! The price table: preset defaults, overridden by what the boss sets.

use std::collections::BTreeMap;

use cubicle_store::entity::model_price;
use cubicle_store::models as q;
use sea_orm::ActiveValue::{NotSet, Set};
use sea_orm::IntoActiveModel;

use super::{ProviderError, ProviderResult, Providers};
use crate::events::DomainEvent;
use crate::gateway::pricing;
use crate::providers::{PriceDto, SetPrice};

impl Providers {
    pub async fn prices(&self) -> ProviderResult<Vec<PriceDto>> {
        let mut out: BTreeMap<(String, String), PriceDto> = BTreeMap::new();
        let providers = q::list_providers(&self.db).await?;
        for p in &providers {
            for (preset, model, i, _cached, o) in pricing::DEFAULT_PRICES {
                if *preset == p.preset {
                    out.insert(
                        (p.id.clone(), (*model).to_owned()),
                        PriceDto {
                            provider_id: p.id.clone(),
                            model: (*model).to_owned(),
                            input_per_mtok: *i,
                            output_per_mtok: *o,
                            custom: false,
                        },
                    );
                }
            }
        }
        for m in q::list_prices(&self.db).await? {
            out.insert(
                (m.provider_id.clone(), m.model.clone()),
                PriceDto {
                    provider_id: m.provider_id,
                    model: m.model,
                    input_per_mtok: m.input_per_mtok,
                    output_per_mtok: m.output_per_mtok,
                    custom: true,
                },
            );
        }
        Ok(out.into_values().collect())
    }

    pub async fn set_price(&self, input: SetPrice) -> ProviderResult<PriceDto> {
        let valid = |x: f64| x.is_finite() && x >= 0.0;
        if !valid(input.input_per_mtok) || !valid(input.output_per_mtok) {
            return Err(ProviderError::InvalidInput(
                "prices must be zero or more".into(),
            ));
        }
        if input.model.trim().is_empty() {
            return Err(ProviderError::InvalidInput("name the model".into()));
        }
        match q::find_price(&self.db, &input.provider_id, &input.model).await? {
            Some(m) => {
                let mut am = m.into_active_model();
                am.input_per_mtok = Set(input.input_per_mtok);
                am.output_per_mtok = Set(input.output_per_mtok);
                q::update_price(&self.db, am).await?;
            }
            None => {
                q::insert_price(
                    &self.db,
                    model_price::ActiveModel {
                        id: NotSet,
                        provider_id: Set(input.provider_id.clone()),
                        model: Set(input.model.trim().to_owned()),
                        input_per_mtok: Set(input.input_per_mtok),
                        output_per_mtok: Set(input.output_per_mtok),
                    },
                )
                .await?;
            }
        }
        self.bus.publish(DomainEvent::ProvidersChanged);
        Ok(PriceDto {
            provider_id: input.provider_id,
            model: input.model.trim().to_owned(),
            input_per_mtok: input.input_per_mtok,
            output_per_mtok: input.output_per_mtok,
            custom: true,
        })
    }
}
