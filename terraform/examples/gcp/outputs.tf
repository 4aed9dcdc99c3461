output "gateway_url" {
  description = "HTTPS URL of the gateway; point OpenAI clients at this + \"/v1\"."
  value       = module.gecit.gateway_url
}

output "service_account_email" {
  description = "Service account the gateway runs as."
  value       = module.gecit.service_account_email
}

output "admin_key_secret" {
  description = "Secret Manager secret holding the admin key."
  value       = module.gecit.admin_key_secret
}
