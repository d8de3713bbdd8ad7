//! A scripted *small* model on the wire ("smollm2-135m" by id, so the engine treats it
//! as small and drives its employees through guided steps): plain-text answers, played
//! per person from what the step asks.

use std::sync::{Arc, Mutex};

use cubicle_core::gateway::Purpose;
use cubicle_core::org::SetEmployeeBackend;
use cubicle_core::providers::{SaveProvider, SetRoute};
use serde_json::{Value, json};
use wiremock::{MockServer, Request, Respond, ResponseTemplate};

use crate::util::TestCompany;

pub(crate) const SMALL_MODEL: &str = "smollm2-135m-instruct";

/// One request as the scripted model saw it.
#[derive(Clone, Debug)]
pub(crate) struct Asked {
    pub name: String,
    pub user: String,
    pub body: Value,
}

type Play = dyn Fn(&Asked) -> (String, &'static str) + Send + Sync;

/// A small model on the wire: plain text answers, with a finish reason.
#[derive(Clone)]
pub(crate) struct SmallModel {
    play: Arc<Play>,
    asked: Arc<Mutex<Vec<Asked>>>,
}

impl SmallModel {
    pub fn new(play: impl Fn(&Asked) -> (String, &'static str) + Send + Sync + 'static) -> Self {
        Self {
            play: Arc::new(play),
            asked: Arc::default(),
        }
    }

    pub fn asked(&self) -> Vec<Asked> {
        self.asked.lock().unwrap().clone()
    }

    /// Serves this model to `co` as a local provider; returns the server (keep it
    /// alive) and the provider's id.
    pub async fn serve(self, co: &TestCompany) -> (MockServer, String) {
        let server = MockServer::start().await;
        wiremock::Mock::given(wiremock::matchers::method("POST"))
            .respond_with(self)
            .mount(&server)
            .await;
        let p = co
            .core
            .providers
            .save(SaveProvider {
                id: None,
                name: "Local".into(),
                preset: "ollama".into(),
                base_url: format!("{}/v1", server.uri()),
                default_model: SMALL_MODEL.into(),
                models: vec![],
                enabled: true,
            })
            .await
            .unwrap();
        (server, p.id)
    }

    /// Every thought of `co` goes to this model.
    pub async fn serve_everyone(self, co: &TestCompany) -> MockServer {
        let (server, provider_id) = self.serve(co).await;
        co.core
            .providers
            .set_route(SetRoute {
                purpose: Purpose::Thought,
                provider_id,
                model: SMALL_MODEL.into(),
            })
            .await
            .unwrap();
        server
    }

    /// `employee_id` alone thinks with this model (its backend of its own); the rest of
    /// the company keeps its route.
    pub async fn serve_one(self, co: &TestCompany, employee_id: i32) -> MockServer {
        let (server, provider_id) = self.serve(co).await;
        co.core
            .set_employee_backend(SetEmployeeBackend {
                employee_id,
                provider: Some(provider_id),
                model: Some(SMALL_MODEL.into()),
            })
            .await
            .unwrap();
        server
    }
}

impl Respond for SmallModel {
    fn respond(&self, req: &Request) -> ResponseTemplate {
        let body: Value = serde_json::from_slice(&req.body).unwrap_or(Value::Null);
        let system = body["messages"][0]["content"].as_str().unwrap_or("");
        let name = system
            .strip_prefix("You are ")
            .and_then(|s| s.split(',').next())
            .unwrap_or("?")
            .to_owned();
        let asked = Asked {
            name,
            user: body["messages"][1]["content"]
                .as_str()
                .unwrap_or("")
                .to_owned(),
            body: body.clone(),
        };
        let (text, finish) = (self.play)(&asked);
        self.asked.lock().unwrap().push(asked);
        ResponseTemplate::new(200).set_body_json(json!({
            "id": "s", "object": "chat.completion", "model": SMALL_MODEL,
            "choices": [{"index": 0, "finish_reason": finish,
                "message": {"role": "assistant", "content": text}}],
            "usage": {"prompt_tokens": 300, "completion_tokens": 40}
        }))
    }
}

/// Each person answers what their step asks, as a cooperative small model would.
pub(crate) fn cooperative(a: &Asked) -> (String, &'static str) {
    let u = &a.user;
    let text = if u.contains("Answer task or reply") {
        "task".to_owned()
    } else if u.contains("Answer reply or silent") {
        "silent".to_owned()
    } else if u.contains("asking for their input") {
        "Bob, what do you think makes the gripper calibration time out?".to_owned()
    } else if u.contains("Reply to") && a.name == "Bob" {
        "The gripper needs about 4 s to home, and the timeout is 2 s. Raise it.".to_owned()
    } else if u.contains("Reply to") {
        "Thanks, noted.".to_owned()
    } else if u.contains("Write it now") {
        "Gripper calibration timeout\n- The gripper needs about 4 s to home (Bob).\n\
         - Raise the timeout from 2 s to 5 s.\n- Log each calibration step."
            .to_owned()
    } else if u.contains("You finished your task") {
        "Ada, the design note is done: we raise the calibration timeout to 5 s.".to_owned()
    } else {
        "ok".to_owned()
    };
    (text, "stop")
}
