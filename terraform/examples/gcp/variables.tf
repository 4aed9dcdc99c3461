variable "project_id" {
  description = "GCP project to deploy into."
  type        = string
}

variable "region" {
  description = "Region for every regional resource."
  type        = string
  default     = "europe-west3"
}

variable "image" {
  description = "Gateway image in Artifact Registry (built from infra/Dockerfile)."
  type        = string
}

variable "network_name" {
  description = "Existing VPC network with the VPN / Interconnect route to the on-prem GPU node."
  type        = string
}

variable "min_instances" {
  description = "Minimum warm Cloud Run instances."
  type        = number
  default     = 1
}

variable "concurrency" {
  description = "Maximum concurrent requests per Cloud Run instance."
  type        = number
  default     = 80
}

variable "cpu_always_allocated" {
  description = "Keep CPU allocated between requests (recommended for streaming)."
  type        = bool
  default     = true
}

variable "allow_unauthenticated" {
  description = "Let anyone on the internet reach the service (the gateway's API keys still apply)."
  type        = bool
  default     = false
}

variable "invoker_members" {
  description = "IAM members allowed to call the service when allow_unauthenticated is false."
  type        = list(string)
  default     = []
}

variable "policy_file" {
  description = "Path to a routing policy YAML to deploy; null keeps the image's packaged default policy."
  type        = string
  default     = null
}
