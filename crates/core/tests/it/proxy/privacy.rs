//! The local model's look at what a proxy shares (seed 001 §4.5): after the rules, a model
//! on this computer points out what no pattern knows; it only ever adds masking, it sees
//! the text with the rules' masking already done, a confused one leaves the rules' masking
//! and the person is told, and no remote model is ever given the job.

use super::{last_line, lin_and_sam, say};
use crate::util::{TestCompany, model_answering};
use cubicle_core::ErrorCode;
use cubicle_core::error::IpcError;
use cubicle_core::gateway::{BUILTIN, Purpose};
use cubicle_core::providers::{SaveProvider, SetRoute};

const SAID: &str =
    "tell Sam Dan's knee surgery is on Friday, so the Globex demo moves; budget $5,000";

#[tokio::test]
async fn a_local_model_masks_what_the_rules_miss_and_sees_only_what_they_left() {
    let co = TestCompany::new().await;
    let (lin, sam, _, _) = lin_and_sam(&co).await;
    // It also "finds" a placeholder and a word that is not in the text: both change nothing.
    let model = model_answering(
        r#"{"private": ["knee surgery", "Globex", "[amount]", "the merger", "is"]}"#,
    )
    .await;
    co.route_to(&model.uri(), Purpose::Privacy).await;

    let turn = say(&co, &lin, SAID).await;
    let posted = turn.posted.expect("told Sam");
    assert_eq!(
        posted.text,
        "Dan's [private] is on Friday, so the [private] demo moves; budget [amount]"
    );
    assert!(
        turn.reply
            .text
            .contains("a sum of money, what the local model found private"),
        "{}",
        turn.reply.text
    );
    assert_eq!(turn.said.text, SAID, "Lin's own line keeps it all");
    let heard = last_line(&co, &sam).await;
    assert!(
        !heard.contains("knee") && !heard.contains("Globex"),
        "{heard}"
    );

    // The model was asked once, about the text the rules had already masked.
    let asked = model.received_requests().await.unwrap_or_default();
    assert_eq!(asked.len(), 1);
    let body = String::from_utf8_lossy(&asked[0].body);
    assert!(
        body.contains("knee surgery") && body.contains("[amount]"),
        "{body}"
    );
    assert!(
        !body.contains("5,000"),
        "the rules' masking comes first: {body}"
    );
}

#[tokio::test]
async fn a_confused_local_model_leaves_the_rules_masking_and_the_person_is_told() {
    let co = TestCompany::new().await;
    let (lin, _, _, _) = lin_and_sam(&co).await;
    let model = model_answering("Sure! Nothing in there looks private to me.").await;
    co.route_to(&model.uri(), Purpose::Privacy).await;

    let turn = say(&co, &lin, SAID).await;
    assert_eq!(
        turn.posted.expect("told Sam").text,
        "Dan's knee surgery is on Friday, so the Globex demo moves; budget [amount]",
        "the share still goes, masked by the rules"
    );
    assert!(
        turn.reply
            .text
            .contains("did not answer, so only the rules checked this"),
        "{}",
        turn.reply.text
    );
    assert!(
        !model
            .received_requests()
            .await
            .unwrap_or_default()
            .is_empty()
    );
}

#[tokio::test]
async fn only_a_model_on_this_computer_may_look_and_none_is_the_rules_alone() {
    let co = TestCompany::new().await;
    let providers = &co.core.providers;
    let privacy_route = |co: &TestCompany| {
        let providers = co.core.providers.clone();
        async move {
            let routes = providers.routes().await.unwrap();
            let r = routes
                .iter()
                .find(|r| r.purpose == Purpose::Privacy)
                .cloned();
            r.map(|r| r.provider_id)
        }
    };
    assert_eq!(
        privacy_route(&co).await.as_deref(),
        Some(""),
        "none at first"
    );

    let remote = providers
        .save(SaveProvider {
            id: None,
            name: "DeepSeek".into(),
            preset: "deepseek".into(),
            base_url: "https://api.deepseek.com/v1".into(),
            default_model: "deepseek-chat".into(),
            models: vec![],
            enabled: true,
        })
        .await
        .unwrap();
    assert!(!remote.on_this_computer);
    let refused = providers
        .set_route(SetRoute {
            purpose: Purpose::Privacy,
            provider_id: remote.id.clone(),
            model: "deepseek-chat".into(),
        })
        .await
        .unwrap_err();
    assert_eq!(IpcError::from(refused).code, ErrorCode::InvalidInput);
    assert_eq!(privacy_route(&co).await.as_deref(), Some(""));

    providers
        .set_route(SetRoute {
            purpose: Purpose::Privacy,
            provider_id: BUILTIN.into(),
            model: String::new(),
        })
        .await
        .unwrap();
    assert_eq!(privacy_route(&co).await.as_deref(), Some(BUILTIN));
    providers
        .set_route(SetRoute {
            purpose: Purpose::Privacy,
            provider_id: String::new(),
            model: String::new(),
        })
        .await
        .unwrap();
    assert_eq!(
        privacy_route(&co).await.as_deref(),
        Some(""),
        "back to the rules alone"
    );
    assert_eq!(providers.privacy_route().await.unwrap(), None);
}

/// A local provider edited to point off this computer after it was chosen is not used.
#[tokio::test]
async fn a_privacy_provider_moved_off_this_computer_is_not_asked() {
    let co = TestCompany::new().await;
    let (lin, _, _, _) = lin_and_sam(&co).await;
    let model = model_answering(r#"{"private": ["knee surgery"]}"#).await;
    let id = co.route_to(&model.uri(), Purpose::Privacy).await;
    co.core
        .providers
        .save(SaveProvider {
            id: Some(id),
            name: "Scripted".into(),
            preset: "vllm".into(),
            base_url: "https://models.example.com/v1".into(),
            default_model: "m".into(),
            models: vec![],
            enabled: true,
        })
        .await
        .unwrap();
    let turn = say(&co, &lin, SAID).await;
    assert!(turn.posted.expect("told Sam").text.contains("knee surgery"));
    assert!(
        model
            .received_requests()
            .await
            .unwrap_or_default()
            .is_empty()
    );
}
